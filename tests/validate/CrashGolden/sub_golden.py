#!/usr/bin/env python3
# A golden script that dies on a signal before writing anything.
import os

os.abort()
