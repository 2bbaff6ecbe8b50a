"""Ring the doorbell: tell the campaign's live sockets that an event committed.

The channel layer may drop or reorder this message; sockets catch up from the
database by sequence number, so only the event's coordinates travel here.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def group_name(campaign_id: int) -> str:
    return f"table-{campaign_id}"


def announce(event) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(
        group_name(event.campaign_id),
        {"type": "table.event", "seq": event.seq, "event_id": event.pk},
    )
