#include <jxl/decode.h>
#include <jxl/codestream_header.h>
#include <jxl/color_encoding.h>
