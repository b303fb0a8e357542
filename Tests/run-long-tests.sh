#!/usr/bin/env bash
# Runs the tests tagged .long (load and soak runs), which the default `swift test` skips, one at a time so each
# has the process to itself (the capture load test then also checks that memory returns to its baseline).
#   Tests/run-long-tests.sh                       # the tests' own sizes (40 captures for the load test)
#   LUX_CAPTURE_LOAD=1000 Tests/run-long-tests.sh # the issue's figure
# Any other arguments go to `swift test` (for example -c release -Xswiftc -enable-testing).
set -euo pipefail
cd "$(dirname "$0")/.."
export LUX_LONG_TESTS=1
export LUX_CAPTURE_LOAD="${LUX_CAPTURE_LOAD:-40}"
for test in 'CaptureReliabilityTests/load\(\)' 'PhotoCaptureTests/stress\(\)' 'ApplePairEditingTests/motion\(\)'; do
    swift test "$@" --filter "$test"
done
