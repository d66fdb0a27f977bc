// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// The functions of each library loaded on first use: the one list the stubs, the pointers and
// the loader are made from. A function the library starts calling is added here (the link
// fails until it is).

#define KF_HEIF_FUNCTIONS(X)                                                                        \
    X(heif_init) X(heif_context_alloc) X(heif_context_free) X(heif_context_get_primary_image_ID)   \
    X(heif_context_get_primary_image_handle) X(heif_context_read_from_memory_without_copy)       \
    X(heif_context_set_maximum_image_size_limit) X(heif_decode_image)                            \
    X(heif_decoding_options_alloc) X(heif_decoding_options_free)                                  \
    X(heif_image_get_bits_per_pixel_range) X(heif_image_get_plane_readonly)                       \
    X(heif_image_get_primary_height) X(heif_image_get_primary_width)                              \
    X(heif_image_handle_get_color_profile_type) X(heif_image_handle_get_height)                   \
    X(heif_image_handle_get_ispe_height) X(heif_image_handle_get_ispe_width)                      \
    X(heif_image_handle_get_list_of_thumbnail_IDs) X(heif_image_handle_get_luma_bits_per_pixel)   \
    X(heif_image_handle_get_nclx_color_profile) X(heif_image_handle_get_number_of_thumbnails)     \
    X(heif_image_handle_get_raw_color_profile) X(heif_image_handle_get_raw_color_profile_size)    \
    X(heif_image_handle_get_thumbnail) X(heif_image_handle_get_width)                             \
    X(heif_image_handle_has_alpha_channel) X(heif_image_handle_is_premultiplied_alpha)            \
    X(heif_image_handle_release) X(heif_image_release) X(heif_nclx_color_profile_free)

#define KF_AVIF_FUNCTIONS(X)                                                                        \
    X(avifCodecName) X(avifDecoderCreate) X(avifDecoderDestroy) X(avifDecoderNextImage)           \
    X(avifDecoderParse) X(avifDecoderSetIOMemory) X(avifEncoderCreate) X(avifEncoderDestroy)      \
    X(avifEncoderWrite) X(avifImageCreate) X(avifImageDestroy) X(avifImageRGBToYUV)               \
    X(avifImageYUVToRGB) X(avifRGBImageSetDefaults) X(avifRWDataFree) X(avifResultToString)        \
    X(avifDecoderNthImageTiming) X(avifImageSetMetadataExif)

#define KF_JXL_FUNCTIONS(X)                                                                         \
    X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderGetBasicInfo)                            \
    X(JxlDecoderGetColorAsEncodedProfile) X(JxlDecoderGetColorAsICCProfile)                       \
    X(JxlDecoderGetICCProfileSize) X(JxlDecoderImageOutBufferSize) X(JxlDecoderProcessInput)      \
    X(JxlDecoderSetImageOutBuffer) X(JxlDecoderSetInput) X(JxlDecoderSetKeepOrientation)          \
    X(JxlDecoderSetPreferredColorProfile) X(JxlDecoderSetUnpremultiplyAlpha)                      \
    X(JxlDecoderSubscribeEvents) X(JxlColorEncodingSetToSRGB) X(JxlEncoderAddImageFrame)          \
    X(JxlEncoderCloseInput) X(JxlEncoderCreate) X(JxlEncoderDestroy)                              \
    X(JxlEncoderFrameSettingsCreate) X(JxlEncoderFrameSettingsSetOption) X(JxlEncoderInitBasicInfo) \
    X(JxlEncoderProcessOutput) X(JxlEncoderSetBasicInfo) X(JxlEncoderSetColorEncoding)            \
    X(JxlEncoderSetFrameDistance) X(JxlEncoderSetFrameLossless) X(JxlEncoderUseBoxes)                \
    X(JxlEncoderUseContainer) X(JxlEncoderAddBox)
