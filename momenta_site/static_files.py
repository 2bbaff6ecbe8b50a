"""whitenoise, also serving static files collected after the process started.

whitenoise lists STATIC_ROOT once, at start-up. During a rolling upgrade
(deploy/README.md, "Upgrading") `collectstatic` writes the new release's hashed
files beside the old ones while the old instances still run: a page drawn by a
new instance names `app.3f2a….css`, and the browser may fetch it from an old
instance, which would answer 404. So a miss under STATIC_URL is looked up on
disk once more, and remembered when found. The old release's files stay
servable too, because collectstatic runs without --clear.
"""

from __future__ import annotations

import os
import re

from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.responders import MissingFileError

# ManifestStaticFilesStorage's names: `name.<12 hex digits of the content's md5>.ext`.
HASHED = re.compile(r"\.[0-9a-f]{12}\.[^./]+$")


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    def __call__(self, request):
        url = request.path_info
        if not self.autorefresh and url not in self.files and url.startswith(self.static_prefix):
            found = self.collected_since_start(url)
            if found is not None:
                # One dict write; a race only builds the same entry twice.
                self.files[url] = found
        return super().__call__(request)

    def collected_since_start(self, url: str):
        """The StaticFile for `url` if it is now in STATIC_ROOT, else None."""
        if not self.static_root or not self.url_is_canonical(url):
            return None
        root = os.path.abspath(self.static_root) + os.path.sep
        path = os.path.join(root, url[len(self.static_prefix) :])
        if not self.path_is_child_of(path, root) or not os.path.isfile(path):
            return None
        try:
            return self.find_file_at_path(path, url)
        except MissingFileError:
            return None

    def immutable_file_test(self, path, url):
        # A newer release's hashed name is not in this process's manifest, but its
        # content is fixed by its name all the same.
        return super().immutable_file_test(path, url) or bool(HASHED.search(url))
