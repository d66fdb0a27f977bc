// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include "CKingfisherGTK.h"

#include <glib-unix.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

// libdispatch's hooks for a run loop that is not its own (CoreFoundation uses them): the
// main queue's wake-up handle (an eventfd on Linux) and the call that drains the queue.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static gboolean kf_main_queue_ready(gint fd, GIOCondition condition, gpointer data) {
    (void)condition;
    (void)data;
    // Clear the eventfd first: work queued while draining writes to it again and wakes the
    // next iteration.
    uint64_t count;
    while (read(fd, &count, sizeof count) < 0 && errno == EINTR) {
    }
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

void kf_gtk_attach_main_queue(void) {
    static gsize attached = 0;
    if (g_once_init_enter(&attached)) {
        int fd = _dispatch_get_main_queue_handle_4CF();
        guint source = g_unix_fd_add(fd, G_IO_IN, kf_main_queue_ready, NULL);
        // Work queued before the handle existed poked nothing: drain once now.
        g_idle_add_once((GSourceOnceFunc)_dispatch_main_queue_callback_4CF, NULL);
        g_once_init_leave(&attached, source);
    }
}
