// libFuzzer's entry point for programs that have their own `main` (LLVM's FuzzerInterface.h).
// SwiftPM renames an executable's `main`, so each target's main.swift hands its test function to
// libFuzzer's driver through this call instead of relying on libFuzzer's own `main`.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
