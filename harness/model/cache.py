"""The reply cache: one plain JSON file per (backend, model, prompt, params, sample), safe to share and ship.

An entry lives at `<cache dir>/<first 2 hex>/<sha256>.json` and holds
{"backend", "model", "prompt", "params", "sample", "reply", "created"}, so it can be read, diffed and deleted by hand.
Writes are atomic (a temporary file in the same folder, then os.replace), so processes may share one cache.
A damaged entry is reported with a warning and treated as missing, never a crash.
"""

from __future__ import annotations

import hashlib
import json
import time
import warnings
from pathlib import Path

from ..files import write_atomically

KEY_FIELDS = ("backend", "model", "prompt", "params", "sample")


class CacheWarning(UserWarning):
    """A cache entry could not be used; it will be asked again and overwritten."""


def request(backend: str, model: str, prompt: str, params: dict, sample: int = 0) -> dict:
    """What a reply depends on: the fields that make up its key."""
    return {"backend": backend, "model": model, "prompt": prompt, "params": dict(params), "sample": sample}


def key(req: dict) -> str:
    """The sha256 hex digest naming the entry for a request."""
    canonical = json.dumps({f: req[f] for f in KEY_FIELDS}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def path_for(req: dict, cache_dir: Path) -> Path:
    digest = key(req)
    return Path(cache_dir) / digest[:2] / f"{digest}.json"


def lookup(req: dict, cache_dir: Path) -> str | None:
    """The stored reply for a request, or None if there is none (or only a damaged one, which is warned about)."""
    path = path_for(req, cache_dir)
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        return _damaged(path, f"cannot be read ({exc.strerror or exc})")
    try:
        entry = json.loads(text)
    except ValueError as exc:
        return _damaged(path, f"is not valid JSON ({exc})")
    if not isinstance(entry, dict) or not isinstance(entry.get("reply"), str):
        return _damaged(path, 'has no "reply" text')
    wrong = [f for f in KEY_FIELDS if entry.get(f) != req[f]]
    if wrong:
        return _damaged(path, f"belongs to another request (its {', '.join(wrong)} differ)")
    return entry["reply"]


def store(req: dict, reply: str, cache_dir: Path) -> Path:
    """Write the entry atomically; several processes may store the same key at once. Returns the file."""
    entry = {**{f: req[f] for f in KEY_FIELDS}, "reply": reply, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    return write_atomically(path_for(req, cache_dir), json.dumps(entry, ensure_ascii=False, indent=1) + "\n")


def models(cache_dir: Path) -> dict[str, int] | None:
    """How many entries each model has in a cache folder (None if the folder does not exist), for messages."""
    cache_dir = Path(cache_dir)
    if not cache_dir.is_dir():
        return None
    counts: dict[str, int] = {}
    for path in cache_dir.glob("??/*.json"):
        try:
            model = str(json.loads(path.read_text(encoding="utf-8"))["model"])
        except (OSError, ValueError, KeyError, TypeError):
            model = "(damaged)"
        counts[model] = counts.get(model, 0) + 1
    return counts


def _damaged(path: Path, why: str) -> None:
    warnings.warn(f"Ignoring cache entry {path}: it {why}, so it is treated as missing.", CacheWarning, stacklevel=3)
    return None

