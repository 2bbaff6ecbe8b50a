"""An HTTP request's ASGI scope as a server hands it to the app, for the deploy tests."""


def http_scope(path: str, client, *headers, server=("testserver", 80)) -> dict:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": client,
        "server": server,
    }
