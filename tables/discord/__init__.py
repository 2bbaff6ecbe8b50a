"""Discord: the table's rolls, results and pool changes posted to the group's channel.

- `webhooks`: which URLs are Discord webhooks (and `DISCORD_WEBHOOK_HOSTS`, for tests);
- `embeds`: what an event posts, and where (public channel, GM-only channel, nowhere);
- `sender`: the per-process workers that post off the request path (a queue per
  campaign), with retries;
- `outbound`: the one HTTP POST: no redirects, no private addresses, no DNS rebinding;
- `notify`: the after-commit hook (subscribed in tables/apps.py to services/publish.py).

The webhook URLs are secrets: nothing here logs, pushes or exports them.
"""
