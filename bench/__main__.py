"""`python -m bench`: run the benchmarks, print a table, write bench/results/bench.json."""

import sys

from bench.run import main

sys.exit(main())
