// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// libheif, libavif and libjxl, loaded when first used rather than when the process starts.
//
// Together with the decoders they pull in (libde265, x265, dav1d, aom, rav1e, gav1, highway,
// brotli) they are most of a process's start-up: ~20 ms of dynamic linking and static
// constructors that `kf info` on a JPEG never needs. The functions the library calls are
// defined here as stubs that jump through a pointer, filled by dlsym once
// kf_codec_library_load() has opened the library; until then they abort. The names of those
// functions are the one list below, per library.
#ifndef KF_CODEC_LOADER_H
#define KF_CODEC_LOADER_H

#include <stdbool.h>

/// A library loaded on first use.
typedef enum {
    KF_CODEC_LIBRARY_HEIF = 0,
    KF_CODEC_LIBRARY_AVIF = 1,
    KF_CODEC_LIBRARY_JXL = 2,
} kf_codec_library;

/// Opens `library` and resolves every function the stubs stand for, once per process (later
/// calls return the first answer). False when the library or one of its functions is missing.
bool kf_codec_library_load(kf_codec_library library);

/// What went wrong in the failed load of `library`: dlopen's or dlsym's message, or "".
const char *kf_codec_library_error(kf_codec_library library);

#endif
