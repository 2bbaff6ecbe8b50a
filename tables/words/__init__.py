"""Every word the site draws, in one place, by one rule: store keys and numbers, word
them when drawn, for the reader.

A service stores keys, numbers and message ids (`said`), never a finished sentence; a
page, a live push or a Discord post words them in the reader's language when it draws
them. What a GM typed is shown as typed.

- `said`: the stored sentences (a message id and its values) and their wording;
- `wording`: the log's phrases (spends, pools, bands, patterns, moments, numbers);
- `line_names`: a game line's names for its pools, and the labels that name them;
- `values`: the reader's words for the keys the rules store (play modes, harm kinds …).

Words only: no reads, no writes."""
