// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include "CKingfisherGTK.h"

#include <stdio.h>

gboolean kf_gtk_widget_save_png(GtkWidget *widget, const char *path, char *error, size_t error_size) {
    int width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget);
    if (width <= 0 || height <= 0) {
        snprintf(error, error_size, "the widget has no size yet (%d x %d): it is not shown", width, height);
        return FALSE;
    }
    GdkPaintable *paintable = gtk_widget_paintable_new(widget);
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gdk_paintable_snapshot(paintable, snapshot, width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    g_object_unref(paintable);
    if (node == NULL) {
        snprintf(error, error_size, "the widget drew nothing");
        return FALSE;
    }
    GskRenderer *renderer = gsk_cairo_renderer_new();
    GError *gerror = NULL;
    if (!gsk_renderer_realize(renderer, NULL, &gerror)) {
        snprintf(error, error_size, "GSK's cairo renderer did not start: %s", gerror != NULL ? gerror->message : "no reason given");
        g_clear_error(&gerror);
        g_object_unref(renderer);
        gsk_render_node_unref(node);
        return FALSE;
    }
    graphene_rect_t viewport = GRAPHENE_RECT_INIT(0, 0, (float)width, (float)height);
    GdkTexture *texture = gsk_renderer_render_texture(renderer, node, &viewport);
    gsk_renderer_unrealize(renderer);
    g_object_unref(renderer);
    gsk_render_node_unref(node);
    // Written beside the target and renamed, so a reader never sees half a file.
    char *partial = g_strdup_printf("%s.partial", path);
    gboolean saved = gdk_texture_save_to_png(texture, partial);
    g_object_unref(texture);
    if (!saved || rename(partial, path) != 0) {
        snprintf(error, error_size, "could not write the PNG to %s", path);
        remove(partial);
        g_free(partial);
        return FALSE;
    }
    g_free(partial);
    return TRUE;
}
