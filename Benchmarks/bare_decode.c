// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

/*
 * Baselines for the in-process full-decode benchmarks: the bare C libraries kf decodes with.
 *
 * Usage: bare_decode IN.(jpg|png|webp) [--iterations N]   (N defaults to 20)
 *
 * Reads the file into memory once, then times N iterations (after one untimed warm-up) of a
 * full decode to 8-bit RGBA into a fresh malloc'd buffer, with the library's plain API:
 * TurboJPEG tjDecompress2, libspng spng_decode_image (SPNG_FMT_RGBA8, transparency applied),
 * libwebp WebPDecodeRGBAInto. Prints "decode_ms_per_iter=<float>" on stdout (same line format
 * as `kf-bench decode`), and the image size on stderr.
 *
 * Build: cc -O2 -o bare_decode bare_decode.c $(pkg-config --cflags --libs libturbojpeg spng libwebp)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <spng.h>
#include <turbojpeg.h>
#include <webp/decode.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static unsigned char *read_file(const char *path, unsigned long *size_out) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bare_decode: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0) goto fail;
    long size = ftell(f);
    if (size <= 0 || fseek(f, 0, SEEK_SET) != 0) goto fail;
    unsigned char *buf = malloc((size_t)size);
    if (!buf) goto fail;
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        goto fail;
    }
    fclose(f);
    *size_out = (unsigned long)size;
    return buf;
fail:
    fprintf(stderr, "bare_decode: cannot read %s\n", path);
    fclose(f);
    return NULL;
}

/* One full decode of `data` into a fresh RGBA buffer; returns 0 on success. */
typedef int (*decode_fn)(const unsigned char *data, unsigned long size, int *width, int *height);

static tjhandle jpeg_handle;

static int decode_jpeg(const unsigned char *data, unsigned long size, int *width, int *height) {
    int subsamp = 0, colorspace = 0;
    if (tjDecompressHeader3(jpeg_handle, data, size, width, height, &subsamp, &colorspace) != 0) return -1;
    unsigned char *pixels = malloc((size_t)*width * (size_t)*height * 4);
    if (!pixels) return -1;
    int status = tjDecompress2(jpeg_handle, data, size, pixels, *width, 0, *height, TJPF_RGBA, 0);
    free(pixels);
    return status;
}

static int decode_png(const unsigned char *data, unsigned long size, int *width, int *height) {
    spng_ctx *ctx = spng_ctx_new(0);
    if (!ctx) return -1;
    struct spng_ihdr ihdr;
    size_t out_size = 0;
    int status = spng_set_png_buffer(ctx, data, size);
    if (!status) status = spng_get_ihdr(ctx, &ihdr);
    if (!status) status = spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &out_size);
    unsigned char *pixels = status ? NULL : malloc(out_size);
    if (!status && !pixels) status = -1;
    if (!status) status = spng_decode_image(ctx, pixels, out_size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    if (!status) {
        *width = (int)ihdr.width;
        *height = (int)ihdr.height;
    }
    free(pixels);
    spng_ctx_free(ctx);
    return status;
}

static int decode_webp(const unsigned char *data, unsigned long size, int *width, int *height) {
    if (!WebPGetInfo(data, size, width, height)) return -1;
    size_t stride = (size_t)*width * 4, out_size = stride * (size_t)*height;
    unsigned char *pixels = malloc(out_size);
    if (!pixels) return -1;
    int ok = WebPDecodeRGBAInto(data, size, pixels, out_size, (int)stride) != NULL;
    free(pixels);
    return ok ? 0 : -1;
}

int main(int argc, char **argv) {
    const char *path = NULL;
    long iterations = 20;
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "--iterations") == 0 || strcmp(argv[i], "-n") == 0) && i + 1 < argc) {
            iterations = strtol(argv[++i], NULL, 10);
        } else if (!path) {
            path = argv[i];
        } else {
            path = NULL;
            break;
        }
    }
    if (!path || iterations < 1) {
        fprintf(stderr, "usage: %s IN.(jpg|png|webp) [--iterations N]\n", argv[0]);
        return 2;
    }

    unsigned long size = 0;
    unsigned char *data = read_file(path, &size);
    if (!data) return 1;

    decode_fn decode = NULL;
    if (size > 3 && data[0] == 0xFF && data[1] == 0xD8) {
        jpeg_handle = tjInitDecompress();
        if (!jpeg_handle) {
            fprintf(stderr, "bare_decode: tjInitDecompress failed: %s\n", tjGetErrorStr2(NULL));
            return 1;
        }
        decode = decode_jpeg;
    } else if (size > 8 && memcmp(data, "\x89PNG", 4) == 0) {
        decode = decode_png;
    } else if (size > 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0) {
        decode = decode_webp;
    } else {
        fprintf(stderr, "bare_decode: %s is not a JPEG, PNG or WebP file\n", path);
        return 1;
    }

    int width = 0, height = 0;
    double start = 0;
    /* Iteration -1 is an untimed warm-up, as kf-bench does. */
    for (long it = -1; it < iterations; it++) {
        if (it == 0) start = now_ms();
        if (decode(data, size, &width, &height) != 0) {
            fprintf(stderr, "bare_decode: cannot decode %s\n", path);
            return 1;
        }
    }
    double elapsed = now_ms() - start;

    if (jpeg_handle) tjDestroy(jpeg_handle);
    free(data);
    fprintf(stderr, "bare_decode: %dx%d, %ld iterations\n", width, height, iterations);
    printf("decode_ms_per_iter=%.3f\n", elapsed / (double)iterations);
    return 0;
}
