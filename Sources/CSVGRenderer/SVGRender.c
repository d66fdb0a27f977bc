// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "CSVGRenderer.h"
#include "SVGLibrary.h"

struct kf_svg_document {
    kf_rsvg_handle *handle;
    double width, height;
};

/// Copies librsvg's message, without a trailing newline, and frees it.
static void kf_svg_take_error(kf_gerror *gerror, const char *fallback, char *error, size_t error_size) {
    const char *message = gerror != NULL && gerror->message != NULL ? gerror->message : fallback;
    snprintf(error, error_size, "%s", message);
    size_t length = strlen(error);
    while (length > 0 && (error[length - 1] == '\n' || error[length - 1] == ' ')) error[--length] = '\0';
    if (gerror != NULL) kf_svg.g_error_free(gerror);
}

kf_svg_document *kf_svg_document_parse(const uint8_t *bytes, size_t size, char *error, size_t error_size) {
    kf_gerror *gerror = NULL;
    kf_rsvg_handle *handle = kf_svg.rsvg_handle_new_from_data(bytes, size, &gerror);
    if (handle == NULL) {
        kf_svg_take_error(gerror, "librsvg could not parse the document", error, error_size);
        return NULL;
    }
    if (gerror != NULL) kf_svg.g_error_free(gerror);
    kf_svg.rsvg_handle_set_dpi(handle, 96);
    kf_svg_document *document = calloc(1, sizeof *document);
    if (document == NULL) {
        kf_svg.g_object_unref(handle);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    document->handle = handle;
    double width = 0, height = 0;
    if (!kf_svg.rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) || width <= 0 || height <= 0) {
        // Percentages (or no width and height) mean the size of a viewport the document does
        // not have: its viewBox gives one, as it does in browsers.
        kf_gboolean has_width, has_height, has_viewbox = 0;
        kf_rsvg_length length_width, length_height;
        kf_rsvg_rectangle viewbox = {0};
        kf_svg.rsvg_handle_get_intrinsic_dimensions(handle, &has_width, &length_width, &has_height, &length_height, &has_viewbox, &viewbox);
        if (has_viewbox && viewbox.width > 0 && viewbox.height > 0) {
            width = viewbox.width;
            height = viewbox.height;
        } else {
            width = 300;
            height = 150;
        }
    }
    document->width = width;
    document->height = height;
    return document;
}

void kf_svg_document_size(const kf_svg_document *document, double *width, double *height) {
    *width = document->width;
    *height = document->height;
}

void kf_svg_document_free(kf_svg_document *document) {
    if (document == NULL) return;
    kf_svg.g_object_unref(document->handle);
    free(document);
}

int kf_svg_max_renderers(void) {
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    return processors >= 2 ? (int)(processors * 2) : 4;
}

static sem_t kf_svg_renderer_slots;
static pthread_once_t kf_svg_slots_once = PTHREAD_ONCE_INIT;
static void kf_svg_make_slots(void) { sem_init(&kf_svg_renderer_slots, 0, (unsigned)kf_svg_max_renderers()); }

static int64_t kf_svg_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static struct timespec kf_svg_timespec(int64_t nanoseconds) {
    struct timespec time = {.tv_sec = nanoseconds / 1000000000, .tv_nsec = nanoseconds % 1000000000};
    return time;
}

/// One render, shared by the thread that renders and the caller that waits: whichever is last
/// frees it, so a caller that gave up never leaves the renderer writing into freed memory.
typedef struct {
    atomic_int references;
    /// Set by a caller that stopped waiting.
    atomic_bool abandoned;
    int64_t deadline;
    pthread_mutex_t lock;
    pthread_cond_t finished_condition;
    bool finished;
    /// The renderer's thread, once it has started (under `lock`).
    pid_t thread_id;
    kf_rsvg_handle *handle;
    int width, height;
    double document_width, document_height;
    kf_cairo_surface *image;
    kf_svg_render_status status;
    char error[256];
} kf_svg_render_job;

static void kf_svg_release(kf_svg_render_job *job) {
    if (atomic_fetch_sub(&job->references, 1) != 1) return;
    if (job->image != NULL) kf_svg.cairo_surface_destroy(job->image);
    kf_svg.g_object_unref(job->handle);
    pthread_cond_destroy(&job->finished_condition);
    pthread_mutex_destroy(&job->lock);
    free(job);
}

static void kf_svg_render_job_run(kf_svg_render_job *job) {
    job->image = kf_svg.cairo_image_surface_create(KF_CAIRO_FORMAT_ARGB32, job->width, job->height);
    int status = kf_svg.cairo_surface_status(job->image);
    if (status != 0) {
        job->status = KF_SVG_FAILED;
        snprintf(job->error, sizeof job->error, "cairo cannot make a %dx%d surface: %s", job->width, job->height,
                 kf_svg.cairo_status_to_string(status));
        return;
    }
    kf_cairo *cr = kf_svg.cairo_create(job->image);
    // The document is laid out at its own size and stretched to the output, as a raster image
    // would be resized: librsvg alone would keep the aspect ratio and letterbox.
    kf_svg.cairo_scale(cr, job->width / job->document_width, job->height / job->document_height);
    kf_rsvg_rectangle viewport = {0, 0, job->document_width, job->document_height};
    kf_gerror *gerror = NULL;
    bool rendered = kf_svg.rsvg_handle_render_document(job->handle, cr, &viewport, &gerror);
    kf_svg.cairo_destroy(cr);
    if (!rendered) {
        job->status = KF_SVG_FAILED;
        kf_svg_take_error(gerror, "librsvg could not render the document", job->error, sizeof job->error);
    } else {
        if (gerror != NULL) kf_svg.g_error_free(gerror);
        kf_svg.cairo_surface_flush(job->image);
        job->status = KF_SVG_RENDERED;
    }
}

static void *kf_svg_render_thread(void *argument) {
    kf_svg_render_job *job = argument;
    pthread_mutex_lock(&job->lock);
    job->thread_id = gettid();
    pthread_mutex_unlock(&job->lock);
    // A job whose deadline passed before its thread ran (a time limit of 0 among them) is not
    // started.
    if (atomic_load(&job->abandoned) || kf_svg_now() >= job->deadline) {
        job->status = KF_SVG_TIMED_OUT;
    } else {
        kf_svg_render_job_run(job);
    }
    pthread_mutex_lock(&job->lock);
    job->finished = true;
    pthread_cond_signal(&job->finished_condition);
    pthread_mutex_unlock(&job->lock);
    kf_svg_release(job);
    sem_post(&kf_svg_renderer_slots);
    return NULL;
}

/// Cairo's premultiplied native-endian ARGB32 to straight RGBA8.
static void kf_svg_copy_unpremultiplied(kf_cairo_surface *image, int width, int height, uint8_t *rgba) {
    const unsigned char *data = kf_svg.cairo_image_surface_get_data(image);
    int stride = kf_svg.cairo_image_surface_get_stride(image);
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(data + (size_t)y * (size_t)stride);
        uint8_t *out = rgba + (size_t)y * (size_t)width * 4;
        for (int x = 0; x < width; x++, out += 4) {
            uint32_t pixel = row[x];
            uint32_t alpha = pixel >> 24;
            if (alpha == 0) {
                out[0] = out[1] = out[2] = out[3] = 0;
                continue;
            }
            uint32_t red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF;
            if (alpha != 255) {
                red = (red * 255 + alpha / 2) / alpha;
                green = (green * 255 + alpha / 2) / alpha;
                blue = (blue * 255 + alpha / 2) / alpha;
            }
            out[0] = (uint8_t)(red > 255 ? 255 : red);
            out[1] = (uint8_t)(green > 255 ? 255 : green);
            out[2] = (uint8_t)(blue > 255 ? 255 : blue);
            out[3] = (uint8_t)alpha;
        }
    }
}

kf_svg_render_status kf_svg_document_render(
    kf_svg_document *document, int width, int height, uint8_t *rgba, int64_t time_limit_ns, char *error,
    size_t error_size) {
    pthread_once(&kf_svg_slots_once, kf_svg_make_slots);
    int64_t deadline = kf_svg_now() + (time_limit_ns > 0 ? time_limit_ns : 0);
    struct timespec deadline_time = kf_svg_timespec(deadline);
    while (sem_clockwait(&kf_svg_renderer_slots, CLOCK_MONOTONIC, &deadline_time) != 0) {
        if (errno == EINTR) continue;
        snprintf(error, error_size, "all %d SVG renderers were busy until the time limit", kf_svg_max_renderers());
        return KF_SVG_BUSY;
    }
    kf_svg_render_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        sem_post(&kf_svg_renderer_slots);
        snprintf(error, error_size, "out of memory");
        return KF_SVG_FAILED;
    }
    atomic_init(&job->references, 2);
    atomic_init(&job->abandoned, false);
    job->deadline = deadline;
    pthread_mutex_init(&job->lock, NULL);
    pthread_condattr_t condition_attributes;
    pthread_condattr_init(&condition_attributes);
    pthread_condattr_setclock(&condition_attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&job->finished_condition, &condition_attributes);
    pthread_condattr_destroy(&condition_attributes);
    job->handle = kf_svg.g_object_ref(document->handle);
    job->width = width;
    job->height = height;
    job->document_width = document->width;
    job->document_height = document->height;

    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // librsvg walks the document recursively; libxml2's depth limit of 256 elements keeps that
    // well inside 16 MiB.
    pthread_attr_setstacksize(&attributes, 16 << 20);
    pthread_t thread;
    int created = pthread_create(&thread, &attributes, kf_svg_render_thread, job);
    pthread_attr_destroy(&attributes);
    if (created != 0) {
        atomic_store(&job->references, 1);
        kf_svg_release(job);
        sem_post(&kf_svg_renderer_slots);
        snprintf(error, error_size, "cannot start a renderer thread: %s", strerror(created));
        return KF_SVG_FAILED;
    }

    pthread_mutex_lock(&job->lock);
    int waited = 0;
    while (!job->finished && waited != ETIMEDOUT) {
        waited = pthread_cond_timedwait(&job->finished_condition, &job->lock, &deadline_time);
    }
    bool finished = job->finished;
    if (!finished) {
        atomic_store(&job->abandoned, true);
        // librsvg 2.54 cannot be stopped in the middle of a render, so an abandoned one goes on
        // to its end, holding its renderer slot, but only when the processors are otherwise
        // idle. The thread cannot have exited: it takes the lock first.
        if (job->thread_id != 0) {
            struct sched_param parameters = {0};
            sched_setscheduler(job->thread_id, SCHED_IDLE, &parameters);
        }
    }
    pthread_mutex_unlock(&job->lock);

    kf_svg_render_status status;
    if (!finished) {
        status = KF_SVG_TIMED_OUT;
    } else {
        status = job->status;
    }
    if (status == KF_SVG_RENDERED) {
        kf_svg_copy_unpremultiplied(job->image, width, height, rgba);
    } else if (status == KF_SVG_FAILED) {
        snprintf(error, error_size, "%s", job->error);
    } else {
        snprintf(error, error_size, "rendering did not finish within the time limit");
    }
    kf_svg_release(job);
    return status;
}
