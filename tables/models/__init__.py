"""Every model of the app, importable from one place (the app label stays `tables`)."""

from .calls import *  # noqa: F401,F403
from .conflicts import *  # noqa: F401,F403
from .core import *  # noqa: F401,F403
from .d20 import *  # noqa: F401,F403
from .events import *  # noqa: F401,F403
from .harm import *  # noqa: F401,F403
from .momenta import *  # noqa: F401,F403
from .person import PersonSettings  # noqa: F401
from .scene import *  # noqa: F401,F403
