"""A fake Discord webhook server on 127.0.0.1 for the tests: no network.

It records every post (path and JSON body) and answers from a script, one answer
per post, then 204 once the script is spent:

    fake.script("429", retry_after=30)   # Discord's JSON body
    fake.script("429", header=7)         # only the Retry-After header
    fake.script("500")
    fake.script("hang")                  # no answer until the test ends (fake.stop)
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeDiscord:
    def __init__(self):
        self.posts: list[tuple[str, dict]] = []
        self._script: list[dict] = []
        self._lock = threading.Lock()
        self._release = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def url(self, hook_id: int, token: str) -> str:
        return f"{self.origin}/api/webhooks/{hook_id}/{token}"

    def script(self, answer: str, *, retry_after: float | None = None, header=None, times=1):
        with self._lock:
            self._script += [
                {"answer": answer, "retry_after": retry_after, "header": header}
            ] * times

    def posts_to(self, hook_id: int) -> list[dict]:
        return [body for path, body in self.posts if path.split("/")[3] == str(hook_id)]

    def stop(self):
        self._release.set()  # hanging answers end
        self.server.shutdown()
        self.server.server_close()

    def _next(self) -> dict:
        with self._lock:
            return self._script.pop(0) if self._script else {"answer": "204", "header": None}

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.posts.append((self.path, body))
                step = fake._next()
                if step["answer"] == "hang":
                    fake._release.wait(30)
                    return
                status = int(step["answer"])
                data = b""
                if status == 429 and step["retry_after"] is not None:
                    data = json.dumps(
                        {
                            "message": "You are being rate limited.",
                            "retry_after": step["retry_after"],
                            "global": False,
                        }
                    ).encode()
                elif status >= 400:
                    data = json.dumps({"message": "Internal error", "code": 0}).encode()
                self.send_response(status)
                if step["header"] is not None:
                    self.send_header("Retry-After", str(step["header"]))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):  # quiet test output
                pass

        return Handler
