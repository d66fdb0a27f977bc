// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// libFuzzer's entry for programs with their own main (LLVM 11 and later). Only kf-fuzz built
// with -sanitize=fuzzer calls it; that link brings in libFuzzer.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
