#!/usr/bin/env bash
# `meson test --wrapper` for memcheck: runs test programs under valgrind and
# fails on any memory error or definitely lost byte. Test scripts (bash) run
# as they are; valgrinding the shell would only test the shell.
case "$(basename "$1")" in
  bash | sh | python3) exec "$@" ;;
esac
exec valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
  --errors-for-leak-kinds=definite --track-origins=no "$@"
