// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include "CLazyCurl.h"

#if defined(__x86_64__) && defined(__linux__)

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The libcurl functions FoundationNetworking calls (`nm -u` of its archive).
#define KF_CURL_FUNCTIONS(F)                                                                                           \
    F(curl_easy_cleanup) F(curl_easy_getinfo) F(curl_easy_init) F(curl_easy_pause) F(curl_easy_setopt)               \
    F(curl_easy_strerror) F(curl_free) F(curl_global_init) F(curl_multi_add_handle) F(curl_multi_assign)              \
    F(curl_multi_cleanup) F(curl_multi_info_read) F(curl_multi_init) F(curl_multi_remove_handle)                      \
    F(curl_multi_setopt) F(curl_multi_socket_action) F(curl_slist_append) F(curl_slist_free_all) F(curl_url)         \
    F(curl_url_get) F(curl_url_set) F(curl_version) F(curl_version_info)

// Each function's pointer starts at its lazy entry, which loads libcurl and comes back.
#define KF_CURL_DECLARE_LAZY(name) extern char kf_curl_lazy_##name[];
KF_CURL_FUNCTIONS(KF_CURL_DECLARE_LAZY)
#define KF_CURL_POINTER(name)                                                                                        \
    __attribute__((visibility("hidden"))) void *kf_curl_pointer_##name = (void *)kf_curl_lazy_##name;
KF_CURL_FUNCTIONS(KF_CURL_POINTER)

static pthread_once_t kf_curl_once = PTHREAD_ONCE_INIT;
static bool kf_curl_loaded;

static void kf_curl_load_once(void) {
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_GLOBAL);
    if (handle == NULL) {
        fprintf(stderr, "Kingfisher: FoundationNetworking needs libcurl, which cannot be opened: %s\n", dlerror());
        abort();
    }
#define KF_CURL_RESOLVE(name)                                                                                        \
    if ((kf_curl_pointer_##name = dlsym(handle, #name)) == NULL) {                                                     \
        fprintf(stderr, "Kingfisher: libcurl.so.4 has no function " #name "\n");                                      \
        abort();                                                                                                       \
    }
    KF_CURL_FUNCTIONS(KF_CURL_RESOLVE)
    __atomic_store_n(&kf_curl_loaded, true, __ATOMIC_RELEASE);
}

/// Called by the lazy entries, with every argument register saved.
__attribute__((visibility("hidden"), used)) void kf_curl_load(void) { pthread_once(&kf_curl_once, kf_curl_load_once); }

bool kf_lazy_curl_is_loaded(void) { return __atomic_load_n(&kf_curl_loaded, __ATOMIC_ACQUIRE); }

// The lazy entry of each function keeps the address of the function's pointer in r11 (free at a
// call) and goes to the common one. That saves the integer and vector argument registers (and
// al, the vector count of a variadic call such as curl_easy_setopt), loads libcurl, restores
// them and jumps to the now real function, as if its caller had called it.
__asm__(".text\n"
        ".type kf_curl_lazy_common, @function\n"
        "kf_curl_lazy_common:\n"
        "    push %r11\n    push %rdi\n    push %rsi\n    push %rdx\n"
        "    push %rcx\n    push %r8\n    push %r9\n    push %rax\n"
        "    sub $136, %rsp\n"
        "    movdqu %xmm0, 0(%rsp)\n    movdqu %xmm1, 16(%rsp)\n    movdqu %xmm2, 32(%rsp)\n    movdqu %xmm3, 48(%rsp)\n"
        "    movdqu %xmm4, 64(%rsp)\n    movdqu %xmm5, 80(%rsp)\n    movdqu %xmm6, 96(%rsp)\n    movdqu %xmm7, 112(%rsp)\n"
        "    call kf_curl_load\n"
        "    movdqu 0(%rsp), %xmm0\n    movdqu 16(%rsp), %xmm1\n    movdqu 32(%rsp), %xmm2\n    movdqu 48(%rsp), %xmm3\n"
        "    movdqu 64(%rsp), %xmm4\n    movdqu 80(%rsp), %xmm5\n    movdqu 96(%rsp), %xmm6\n    movdqu 112(%rsp), %xmm7\n"
        "    add $136, %rsp\n"
        "    pop %rax\n    pop %r9\n    pop %r8\n    pop %rcx\n    pop %rdx\n    pop %rsi\n    pop %rdi\n    pop %r11\n"
        "    jmp *(%r11)\n"
        ".size kf_curl_lazy_common, . - kf_curl_lazy_common\n");

// The function itself jumps through its pointer; its lazy entry names the pointer.
#define KF_CURL_STUBS(name)                                                                                          \
    __asm__(".text\n.globl " #name "\n.type " #name ", @function\n" #name ":\n"                                     \
            "    jmp *kf_curl_pointer_" #name "(%rip)\n.size " #name ", . - " #name "\n"                                \
            ".globl kf_curl_lazy_" #name "\n.hidden kf_curl_lazy_" #name "\n"                                          \
            ".type kf_curl_lazy_" #name ", @function\nkf_curl_lazy_" #name ":\n"                                        \
            "    lea kf_curl_pointer_" #name "(%rip), %r11\n    jmp kf_curl_lazy_common\n"                              \
            ".size kf_curl_lazy_" #name ", . - kf_curl_lazy_" #name "\n");
KF_CURL_FUNCTIONS(KF_CURL_STUBS)

#endif

// libcurl's URL API as curl/urlapi.h declares it (CURLUPART_URL is 0, CURLUPART_HOST 5); with the
// stubs these calls go through them, elsewhere straight to libcurl.
typedef struct kf_curl_url kf_curl_url;
extern kf_curl_url *curl_url(void);
extern int curl_url_set(kf_curl_url *handle, int part, const char *content, unsigned int flags);
extern int curl_url_get(kf_curl_url *handle, int part, char **content, unsigned int flags);
extern void curl_free(void *pointer);

bool kf_lazy_curl_url_host(const char *url, char *host, unsigned long size) {
    kf_curl_url *handle = curl_url();
    if (handle == NULL || curl_url_set(handle, 0, url, 0) != 0) return false;
    char *part = NULL;
    if (curl_url_get(handle, 5, &part, 0) != 0 || part == NULL) return false;
    snprintf(host, size, "%s", part);
    curl_free(part);
    return true;
}

#if !(defined(__x86_64__) && defined(__linux__))
bool kf_lazy_curl_is_loaded(void) { return true; }
#endif
