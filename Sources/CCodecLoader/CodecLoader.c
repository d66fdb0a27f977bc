// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include "CCodecLoader.h"

#include <avif/avif.h>
#include <dlfcn.h>
#include <jxl/version.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "CodecFunctions.h"

// Each stub jumps through its pointer, so that its caller's arguments and return value pass
// untouched, whatever the function's signature. Until the library is loaded the pointer is
// kf_codec_not_loaded.

static void kf_codec_not_loaded(void) {
    fputs("Kingfisher: a libheif, libavif or libjxl function was called before kf_codec_library_load\n", stderr);
    abort();
}

#define KF_POINTER(name) __attribute__((visibility("hidden"))) void *kf_codec_pointer_##name = (void *)kf_codec_not_loaded;
KF_HEIF_FUNCTIONS(KF_POINTER)
KF_AVIF_FUNCTIONS(KF_POINTER)
KF_JXL_FUNCTIONS(KF_POINTER)

#if defined(__x86_64__)
#define KF_STUB(name)                                                                              \
    __asm__(".text\n.globl " #name "\n.type " #name ", @function\n" #name ":\n"                    \
            "    jmp *kf_codec_pointer_" #name "(%rip)\n.size " #name ", . - " #name "\n");
#elif defined(__aarch64__)
#define KF_STUB(name)                                                                              \
    __asm__(".text\n.globl " #name "\n.type " #name ", %function\n" #name ":\n"                    \
            "    adrp x16, kf_codec_pointer_" #name "\n"                                           \
            "    ldr x16, [x16, :lo12:kf_codec_pointer_" #name "]\n"                               \
            "    br x16\n.size " #name ", . - " #name "\n");
#else
#error "CCodecLoader has stubs for x86_64 and aarch64 only"
#endif
KF_HEIF_FUNCTIONS(KF_STUB)
KF_AVIF_FUNCTIONS(KF_STUB)
KF_JXL_FUNCTIONS(KF_STUB)

#define KF_STRINGIFY_VALUE(x) #x
#define KF_STRINGIFY(x) KF_STRINGIFY_VALUE(x)

// The file names to try for each library: the SONAME of the version whose headers this was
// built with, then the development symlink.
#if AVIF_VERSION_MAJOR == 0 && AVIF_VERSION_MINOR == 11
#define KF_AVIF_SONAME "libavif.so.15"
#elif AVIF_VERSION_MAJOR == 1
#define KF_AVIF_SONAME "libavif.so.16"
#else
#define KF_AVIF_SONAME "libavif.so"
#endif
#if JPEGXL_MAJOR_VERSION == 0
#define KF_JXL_SONAME "libjxl.so.0." KF_STRINGIFY(JPEGXL_MINOR_VERSION)
#else
#define KF_JXL_SONAME "libjxl.so." KF_STRINGIFY(JPEGXL_MAJOR_VERSION)
#endif

static const char *const kf_codec_file_names[3][2] = {
    {"libheif.so.1", "libheif.so"},
    {KF_AVIF_SONAME, "libavif.so"},
    {KF_JXL_SONAME, "libjxl.so"},
};

static pthread_once_t kf_codec_once[3] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};
static bool kf_codec_loaded[3];
static char kf_codec_errors[3][512];

/// Resolves `name` into `*pointer`; on failure records why and returns false.
static bool kf_codec_resolve(kf_codec_library library, void *handle, const char *name, void **pointer) {
    void *symbol = dlsym(handle, name);
    if (symbol == NULL) {
        snprintf(kf_codec_errors[library], sizeof kf_codec_errors[library], "%s has no function %s",
                 kf_codec_file_names[library][0], name);
        return false;
    }
    *pointer = symbol;
    return true;
}

static void kf_codec_load_once(kf_codec_library library) {
    void *handle = NULL;
    for (int i = 0; i < 2 && handle == NULL; i++) handle = dlopen(kf_codec_file_names[library][i], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(kf_codec_errors[library], sizeof kf_codec_errors[library], "%s", reason ? reason : "cannot open the library");
        return;
    }
    // The pointers are written before kf_codec_loaded says they may be used; pthread_once
    // publishes both to every thread that calls kf_codec_library_load.
    bool ok = true;
#define KF_RESOLVE(name) ok = ok && kf_codec_resolve(library, handle, #name, &kf_codec_pointer_##name);
    switch (library) {
    case KF_CODEC_LIBRARY_HEIF: KF_HEIF_FUNCTIONS(KF_RESOLVE) break;
    case KF_CODEC_LIBRARY_AVIF: KF_AVIF_FUNCTIONS(KF_RESOLVE) break;
    case KF_CODEC_LIBRARY_JXL: KF_JXL_FUNCTIONS(KF_RESOLVE) break;
    }
    kf_codec_loaded[library] = ok;
}

static void kf_codec_load_heif(void) { kf_codec_load_once(KF_CODEC_LIBRARY_HEIF); }
static void kf_codec_load_avif(void) { kf_codec_load_once(KF_CODEC_LIBRARY_AVIF); }
static void kf_codec_load_jxl(void) { kf_codec_load_once(KF_CODEC_LIBRARY_JXL); }

bool kf_codec_library_load(kf_codec_library library) {
    static void (*const loaders[3])(void) = {kf_codec_load_heif, kf_codec_load_avif, kf_codec_load_jxl};
    if ((unsigned)library > 2) return false;
    pthread_once(&kf_codec_once[library], loaders[library]);
    return kf_codec_loaded[library];
}

const char *kf_codec_library_error(kf_codec_library library) {
    if ((unsigned)library > 2) return "";
    return kf_codec_errors[library];
}
