/*
 * Baseline for the in-process full-decode benchmark: bare TurboJPEG.
 *
 * Usage: bare_decode IN.jpg [--iterations N]   (N defaults to 20)
 *
 * Reads the file into memory once and creates one decompressor handle, then
 * times N iterations (after one untimed warm-up) of: read header, malloc(w*h*4), tjDecompress2 to RGBA,
 * free. Prints "decode_ms_per_iter=<float>" on stdout (same line format as
 * `kf-bench decode`), and the image size on stderr.
 *
 * Build: cc -O2 -o bare_decode bare_decode.c $(pkg-config --cflags --libs libturbojpeg)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <turbojpeg.h>

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
        fprintf(stderr, "usage: %s IN.jpg [--iterations N]\n", argv[0]);
        return 2;
    }

    unsigned long jpeg_size = 0;
    unsigned char *jpeg = read_file(path, &jpeg_size);
    if (!jpeg) return 1;

    tjhandle handle = tjInitDecompress();
    if (!handle) {
        fprintf(stderr, "bare_decode: tjInitDecompress failed: %s\n", tjGetErrorStr2(NULL));
        return 1;
    }

    int width = 0, height = 0;
    double start = 0;
    /* Iteration -1 is an untimed warm-up, as kf-bench does. */
    for (long it = -1; it < iterations; it++) {
        if (it == 0) start = now_ms();
        int subsamp = 0, colorspace = 0;
        if (tjDecompressHeader3(handle, jpeg, jpeg_size, &width, &height, &subsamp, &colorspace) != 0) {
            fprintf(stderr, "bare_decode: header: %s\n", tjGetErrorStr2(handle));
            return 1;
        }
        unsigned char *pixels = malloc((size_t)width * (size_t)height * 4);
        if (!pixels) {
            fprintf(stderr, "bare_decode: out of memory\n");
            return 1;
        }
        if (tjDecompress2(handle, jpeg, jpeg_size, pixels, width, 0, height, TJPF_RGBA, 0) != 0) {
            fprintf(stderr, "bare_decode: decode: %s\n", tjGetErrorStr2(handle));
            free(pixels);
            return 1;
        }
        free(pixels);
    }
    double elapsed = now_ms() - start;

    tjDestroy(handle);
    free(jpeg);
    fprintf(stderr, "bare_decode: %dx%d, %ld iterations\n", width, height, iterations);
    printf("decode_ms_per_iter=%.3f\n", elapsed / (double)iterations);
    return 0;
}
