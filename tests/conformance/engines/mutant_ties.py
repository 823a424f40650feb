"""Two kinds of deviation at once: plays the rule file given as its first argument under the name of its
second (three features of r003 changed, say), and gives a tie between equal plays to the last of them."""
import sys

import tie_last
from _faux import serve
from conformance.protocol import engine

sys.exit(serve(tie_last.tamper, on_start=lambda: engine.serve_files([sys.argv[1]], sys.argv[2])))
