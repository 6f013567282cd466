#!/usr/bin/env python3
# A compare script that never finishes (its child too): pto-validate's
# timeout must end both.
import subprocess
import time

subprocess.Popen(["sleep", "600"])
time.sleep(600)
