#ifndef LINKSTR_CIMAGE_SHIM_H
#define LINKSTR_CIMAGE_SHIM_H
/* Debian's libstb (stb_image: JPEG, PNG, GIF's first frame; stb_image_resize and stb_image_write: thumbnails made small once) and
   libwebp (WebP decode; encode for test fixtures). */
#include <stb_image.h>
#include <stb_image_write.h>
#include <stb_image_resize.h>
#include <webp/decode.h>
#include <webp/encode.h>
#endif
