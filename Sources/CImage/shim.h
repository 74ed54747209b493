#ifndef LINKSTR_CIMAGE_SHIM_H
#define LINKSTR_CIMAGE_SHIM_H
/* Debian's libstb (stb_image: JPEG, PNG, GIF's first frame; stb_image_write: thumbnails re-encoded once) and
   libwebp (WebP decode; encode for test fixtures). */
#include <stb_image.h>
#include <stb_image_write.h>
#include <webp/decode.h>
#include <webp/encode.h>
#endif
