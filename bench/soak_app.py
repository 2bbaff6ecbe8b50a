"""The app as bench/memory_soak.py serves it: momenta_site.asgi, plus tracemalloc.

A bench-only wrapper, so production code carries no hook of the bench's: with
MEMORY_SOAK_FRAMES=N (N > 0) in the environment, tracemalloc starts once the app is
loaded, keeping N frames per allocation; `POST /__memory_soak__/snapshot/?path=P`
writes a snapshot to the file P (tracemalloc.Snapshot.dump) and answers the garbage
collector's figures as JSON. The bench loads and compares the snapshots in its own
process: the worker only pays for taking and writing one, not for holding any. No
collection is forced (`&collect=1` does one first): garbage the worker's own
thresholds leave uncollected (momenta_site/gc_tuning.py) is part of its RSS, so it
is part of what the snapshot shows. Every other request is the app's.

Serve with `uvicorn bench.soak_app:application` from the project root.
"""

from __future__ import annotations

import functools
import gc
import json
import os
import sys
import tracemalloc
import types
from urllib.parse import parse_qs

from momenta_site.asgi import application as app

# After start-up, not before: tracing Django's imports with 8 frames took a minute of
# CPU, and what start-up allocates is not growth (the first snapshot comes later).
FRAMES = int(os.environ.get("MEMORY_SOAK_FRAMES", "0"))
if FRAMES > 0:
    tracemalloc.start(FRAMES)

SNAPSHOT_PATH = "/__memory_soak__/snapshot/"
CENSUS_PATH = "/__memory_soak__/census/"
HOLDERS_PATH = "/__memory_soak__/holders/"
CACHES_PATH = "/__memory_soak__/caches/"
COLLECT_PATH = "/__memory_soak__/collect/"


async def _answer(send, status: int, body: bytes = b"") -> None:
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": body})


def census() -> dict[str, int]:
    """Objects the garbage collector tracks, counted by type (module.qualname)."""
    counts: dict[str, int] = {}
    for obj in gc.get_objects():
        kind = type(obj)
        name = f"{kind.__module__}.{kind.__qualname__}"
        counts[name] = counts.get(name, 0) + 1
    return counts


def _describe(obj) -> str:
    kind = type(obj)
    text = f"{kind.__module__}.{kind.__qualname__}"
    if isinstance(obj, dict):
        text += " keys " + ", ".join(sorted(map(str, list(obj)[:6])))
    elif isinstance(obj, (list, tuple, set)):
        text += f" of {len(obj)}"
    elif kind.__name__ in ("frame", "function", "cell"):
        text += f" {getattr(obj, 'f_code', getattr(obj, '__code__', None))}"
    return text[:160]


def holders(type_name: str, depth: int = 6) -> list[str]:
    """Who keeps the oldest object of `type_name` alive: a chain of referrers (each the
    first one that is not the search's own frame or list), one line per step."""
    found = [o for o in gc.get_objects() if type(o).__qualname__ == type_name]
    if not found:
        return [f"no {type_name}"]
    chain, obj, seen = [f"{len(found)} of {type_name}"], found[0], {id(found)}
    del found
    for _ in range(depth):
        referrers = [r for r in gc.get_referrers(obj) if id(r) not in seen and not _transient(r)]
        if not referrers:
            chain.append("(no referrer tracked)")
            break
        seen.add(id(obj))
        obj = referrers[0]
        more = f" (+{len(referrers) - 1} more)" if len(referrers) > 1 else ""
        chain.append(f"<- {_describe(obj)}{more}")
    return chain


def _transient(obj) -> bool:
    return type(obj).__name__ == "frame" and obj.f_code.co_filename == __file__


_SHARED = (type, types.ModuleType, types.FunctionType, types.CodeType, types.FrameType)


def deep_size(root) -> int:
    """Bytes reachable from `root` (sys.getsizeof of each object once), not counting
    classes, modules, functions, code and frames: what holding `root` keeps alive, give
    or take what it shares with the rest of the process (interned strings, models'
    field objects are found through their class and not counted)."""
    seen: set[int] = set()
    todo = [root]
    total = 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _SHARED):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return total


def process_caches() -> dict[str, list[int]]:
    """{cache: [entries, bytes]} for every cache the worker keeps (deploy/README.md,
    "Sizing"), measured where it lives."""
    from channels.layers import get_channel_layer
    from django.core.cache import caches
    from django.template import engines
    from django.utils.translation import trans_real

    from tables.live import fanout, frames

    with frames._lock:  # copies: the sync thread draws while this runs on the loop
        found: dict[str, object] = {
            "frames.drawn": dict(frames._drawn),
            "frames.rows": dict(frames._rows),
            "frames.held": dict(frames._held),
        }
    found["translations"] = dict(trans_real._translations)
    # The layer's queues hold only doorbells; its groups only channel names (counted, as
    # the hubs are: a hub reaches its sockets, and through them the whole app).
    layer = get_channel_layer()
    counted = {"fanout.hubs": len(fanout._hubs)}
    for name in ("channels", "groups"):
        if hasattr(layer, name):
            counted[f"channel layer.{name}"] = len(getattr(layer, name))
    for alias in caches:
        store = getattr(caches[alias], "_cache", None)
        if store is not None:
            with caches[alias]._lock:  # LocMemCache's: sessions are written meanwhile
                found[f"cache {alias}"] = dict(store)
    # Django's cached loader, inside django-template-partials' wrapper.
    loaders = [loader for e in engines.all() for loader in e.engine.template_loaders]
    while loaders:
        loader = loaders.pop()
        loaders.extend(getattr(loader, "loaders", ()))
        if hasattr(loader, "get_template_cache"):
            found["templates"] = dict(loader.get_template_cache)
    out = {name: [len(store), deep_size(store)] for name, store in found.items()}
    out |= lru_caches()
    if hasattr(frames, "drawn_bytes"):  # the strings themselves, as bounded (issue 41)
        out["frames.drawn"][1] = frames.drawn_bytes()
    return out | {name: [n, 0] for name, n in counted.items()}


def lru_caches() -> dict[str, list[int]]:
    """Every module-level functools cache of the process that holds entries (the C
    wrapper hands its dict to the garbage collector, so deep_size reaches it)."""
    out = {}
    for module in list(sys.modules.values()):
        for name, value in list(vars(module).items()) if module is not None else ():
            if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == (
                module.__name__
            ):
                entries = value.cache_info().currsize
                if entries:
                    out[f"{module.__name__}.{name}()"] = [entries, deep_size(value)]
    return out


async def application(scope, receive, send):
    paths = (SNAPSHOT_PATH, CENSUS_PATH, HOLDERS_PATH, CACHES_PATH, COLLECT_PATH)
    if scope["type"] != "http" or scope["path"] not in paths:
        return await app(scope, receive, send)
    while (await receive()).get("more_body"):
        pass
    query = parse_qs(scope.get("query_string", b"").decode())
    if scope["path"] == CENSUS_PATH:
        return await _answer(send, 200, json.dumps(census()).encode())
    if scope["path"] == COLLECT_PATH:  # a full collection now: what of it was garbage
        before = census()
        unreachable = gc.collect()
        after = census()
        freed = {k: n - after.get(k, 0) for k, n in before.items() if n > after.get(k, 0)}
        body = {"unreachable": unreachable, "freed": freed}
        return await _answer(send, 200, json.dumps(body).encode())
    if scope["path"] == CACHES_PATH:
        return await _answer(send, 200, json.dumps(process_caches()).encode())
    if scope["path"] == HOLDERS_PATH:
        chain = holders(query.get("type", [""])[0])
        return await _answer(send, 200, json.dumps(chain).encode())
    path = query.get("path", [""])[0]
    if not tracemalloc.is_tracing() or not path:
        return await _answer(send, 404, b"tracemalloc is off (MEMORY_SOAK_FRAMES) or no path")
    if query.get("collect") == ["1"]:
        gc.collect()
    snapshot = tracemalloc.take_snapshot()
    snapshot.dump(path)
    del snapshot
    traced, peak = tracemalloc.get_traced_memory()
    figures = {
        "traced": traced,
        "traced_peak": peak,
        "tracemalloc_overhead": tracemalloc.get_tracemalloc_memory(),
        "gc_count": gc.get_count(),
        "gc_frozen": gc.get_freeze_count(),
        "gc_collections": [s["collections"] for s in gc.get_stats()],
    }
    await _answer(send, 200, json.dumps(figures).encode())
