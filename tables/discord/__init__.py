"""Discord: the table's rolls, results and pool changes posted to the group's channel.

- `webhooks`: which URLs are Discord webhooks (and `DISCORD_WEBHOOK_HOSTS`, for tests);
- `embeds`: what an event posts, and where (public channel, GM-only channel, nowhere);
- `sender`: the per-process worker that posts off the request path, with retries;
- `notify`: the after-commit hook (subscribed in tables/apps.py to services/publish.py).

The webhook URLs are secrets: nothing here logs, pushes or exports them.
"""
