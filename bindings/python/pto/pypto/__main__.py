"""python -m pto.pypto MODEL.py [--platform a5|a2a3] [--workers N]"""

import sys

from . import main

sys.exit(main())
