// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include "CKingfisherGTK.h"

#include <math.h>

// A GdkPaintable drawing one picture turning into another. GtkPicture lays it out by its
// intrinsic size (the new picture's); the animation only changes what is drawn in that area.
#define KF_TYPE_TRANSITION_PAINTABLE (kf_transition_paintable_get_type())
G_DECLARE_FINAL_TYPE(KfTransitionPaintable, kf_transition_paintable, KF, TRANSITION_PAINTABLE, GObject)

struct _KfTransitionPaintable {
    GObject parent_instance;
    GdkPaintable *from;
    GdkPaintable *to;
    kf_transition_kind kind;
    double progress;
};

/// Draws `paintable` aspect-fit and centred in width x height.
static void kf_snapshot_fitted(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
    if (paintable == NULL) return;
    double ratio = gdk_paintable_get_intrinsic_aspect_ratio(paintable);
    double drawn_width = width, drawn_height = height;
    if (ratio > 0) {
        if (width / height > ratio) {
            drawn_width = height * ratio;
        } else {
            drawn_height = width / ratio;
        }
    }
    gtk_snapshot_save(snapshot);
    gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT((float)((width - drawn_width) / 2), (float)((height - drawn_height) / 2)));
    gdk_paintable_snapshot(paintable, snapshot, drawn_width, drawn_height);
    gtk_snapshot_restore(snapshot);
}

static void kf_transition_paintable_snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
    KfTransitionPaintable *self = KF_TRANSITION_PAINTABLE(paintable);
    double progress = CLAMP(self->progress, 0, 1);
    if (self->kind == KF_TRANSITION_FADE) {
        gtk_snapshot_push_cross_fade(GTK_SNAPSHOT(snapshot), progress);
        kf_snapshot_fitted(self->from, snapshot, width, height);
        gtk_snapshot_pop(GTK_SNAPSHOT(snapshot));
        kf_snapshot_fitted(self->to, snapshot, width, height);
        gtk_snapshot_pop(GTK_SNAPSHOT(snapshot));
        return;
    }
    // A flip: the old picture turns from 0 to 90 degrees, then the new one from -90 to 0, in
    // perspective about the area's centre.
    double angle = progress * 180;
    GdkPaintable *shown = angle < 90 ? self->from : self->to;
    double turned = angle < 90 ? angle : angle - 180;
    const graphene_vec3_t *axis = graphene_vec3_y_axis();
    if (self->kind == KF_TRANSITION_FLIP_FROM_RIGHT) turned = -turned;
    if (self->kind == KF_TRANSITION_FLIP_FROM_TOP || self->kind == KF_TRANSITION_FLIP_FROM_BOTTOM) {
        axis = graphene_vec3_x_axis();
        if (self->kind == KF_TRANSITION_FLIP_FROM_TOP) turned = -turned;
    }
    GtkSnapshot *gtk_snapshot = GTK_SNAPSHOT(snapshot);
    gtk_snapshot_save(gtk_snapshot);
    gtk_snapshot_translate(gtk_snapshot, &GRAPHENE_POINT_INIT((float)(width / 2), (float)(height / 2)));
    gtk_snapshot_perspective(gtk_snapshot, (float)(2 * MAX(width, height)));
    gtk_snapshot_rotate_3d(gtk_snapshot, (float)turned, axis);
    gtk_snapshot_translate(gtk_snapshot, &GRAPHENE_POINT_INIT((float)(-width / 2), (float)(-height / 2)));
    kf_snapshot_fitted(shown, snapshot, width, height);
    gtk_snapshot_restore(gtk_snapshot);
}

static GdkPaintable *kf_transition_paintable_get_current_image(GdkPaintable *paintable) {
    KfTransitionPaintable *self = KF_TRANSITION_PAINTABLE(paintable);
    return gdk_paintable_get_current_image(self->to);
}

static int kf_transition_paintable_get_intrinsic_width(GdkPaintable *paintable) {
    return gdk_paintable_get_intrinsic_width(KF_TRANSITION_PAINTABLE(paintable)->to);
}

static int kf_transition_paintable_get_intrinsic_height(GdkPaintable *paintable) {
    return gdk_paintable_get_intrinsic_height(KF_TRANSITION_PAINTABLE(paintable)->to);
}

static double kf_transition_paintable_get_intrinsic_aspect_ratio(GdkPaintable *paintable) {
    return gdk_paintable_get_intrinsic_aspect_ratio(KF_TRANSITION_PAINTABLE(paintable)->to);
}

static void kf_transition_paintable_interface_init(GdkPaintableInterface *interface) {
    interface->snapshot = kf_transition_paintable_snapshot;
    interface->get_current_image = kf_transition_paintable_get_current_image;
    interface->get_intrinsic_width = kf_transition_paintable_get_intrinsic_width;
    interface->get_intrinsic_height = kf_transition_paintable_get_intrinsic_height;
    interface->get_intrinsic_aspect_ratio = kf_transition_paintable_get_intrinsic_aspect_ratio;
}

G_DEFINE_TYPE_WITH_CODE(
    KfTransitionPaintable, kf_transition_paintable, G_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, kf_transition_paintable_interface_init))

static void kf_transition_paintable_dispose(GObject *object) {
    KfTransitionPaintable *self = KF_TRANSITION_PAINTABLE(object);
    g_clear_object(&self->from);
    g_clear_object(&self->to);
    G_OBJECT_CLASS(kf_transition_paintable_parent_class)->dispose(object);
}

static void kf_transition_paintable_class_init(KfTransitionPaintableClass *class) {
    G_OBJECT_CLASS(class)->dispose = kf_transition_paintable_dispose;
}

static void kf_transition_paintable_init(KfTransitionPaintable *self) { (void)self; }

GdkPaintable *kf_transition_paintable_new(GdkPaintable *from, GdkPaintable *to, kf_transition_kind kind) {
    KfTransitionPaintable *self = g_object_new(KF_TYPE_TRANSITION_PAINTABLE, NULL);
    self->from = from != NULL ? g_object_ref(from) : NULL;
    self->to = g_object_ref(to);
    self->kind = kind;
    return GDK_PAINTABLE(self);
}

void kf_transition_paintable_set_progress(GdkPaintable *paintable, double progress) {
    KfTransitionPaintable *self = KF_TRANSITION_PAINTABLE(paintable);
    self->progress = progress;
    gdk_paintable_invalidate_contents(paintable);
}
