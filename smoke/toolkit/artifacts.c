#include "artifacts.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_file.h"
#include "sha256.h"

static const char *directory, *file_prefix;
static char test_id[96];

void artifacts_configure(const char *dir, const char *prefix)
{
    directory = dir;
    file_prefix = prefix;
}

void artifacts_begin_test(const char *id)
{
    snprintf(test_id, sizeof(test_id), "%s", id);
}

struct memory_sink {
    uint8_t *data;
    size_t length, capacity;
    bool failed;
};

static void sink_write(png_structp png, png_bytep bytes, png_size_t length)
{
    struct memory_sink *sink = png_get_io_ptr(png);
    if (sink->failed)
        return;
    if (sink->length + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (capacity < sink->length + length)
            capacity *= 2;
        uint8_t *bigger = realloc(sink->data, capacity);
        if (bigger == NULL) {
            sink->failed = true;
            return;
        }
        sink->data = bigger;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->length, bytes, length);
    sink->length += length;
}

static void sink_flush(png_structp png)
{
    (void)png;
}

uint8_t *artifacts_encode_png_rgb(const uint8_t *rgb, uint32_t width, uint32_t height, size_t *size)
{
    /* on the heap: libpng reports errors by longjmp, and locals changed after setjmp are lost */
    struct memory_sink *sink = calloc(1, sizeof(*sink));
    png_structp png = sink ? png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL) : NULL;
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(sink);
        return NULL;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink->data);
        free(sink);
        return NULL;
    }
    png_set_write_fn(png, sink, sink_write, sink_flush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; ++y)
        png_write_row(png, (png_const_bytep)(rgb + (size_t)y * width * 3));
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    uint8_t *data = sink->failed ? NULL : sink->data;
    if (sink->failed)
        free(sink->data);
    *size = sink->length;
    free(sink);
    return data;
}

/* Through output_file.h: written beside, then renamed, so a reader never sees half a file. */
static bool write_file(const char *path, const uint8_t *data, size_t size, char *error, size_t error_size)
{
    struct output_file o;
    if (!output_open(&o, path, error, error_size))
        return false;
    if (fwrite(data, 1, size, o.file) != size) {
        snprintf(error, error_size, "cannot write %s", path);
        output_abandon(&o);
        return false;
    }
    return output_commit(&o, error, error_size);
}

static uint32_t code_at(const void *codes, unsigned stride, size_t i)
{
    const uint8_t *p = (const uint8_t *)codes + i * stride;
    return stride == 4 ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : p[0];
}

/* Appends the artifact's entry to the evidence; NULL when no directory was given (the entry then
 * says so). */
static cJSON *artifact_entry(cJSON *evidence, const char *name, const char *what)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(evidence, "artifacts");
    if (list == NULL)
        list = cJSON_AddArrayToObject(evidence, "artifacts");
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddItemToArray(list, entry);
    cJSON_AddStringToObject(entry, "name", name);
    cJSON_AddStringToObject(entry, "what", what);
    if (directory == NULL) {
        cJSON_AddBoolToObject(entry, "written", false);
        return NULL;
    }
    return entry;
}

/* Encodes `rgb`, writes the file and fills the entry. */
static bool write_rgb(cJSON *entry, const char *name, const uint8_t *rgb, uint32_t width, uint32_t height)
{
    size_t size = 0;
    uint8_t *png = artifacts_encode_png_rgb(rgb, width, height, &size);
    if (png == NULL) {
        cJSON_AddStringToObject(entry, "error", "libpng could not encode the image");
        return false;
    }
    char file[512], path[4096], error[4400], hex[65];
    snprintf(file, sizeof(file), "%s.%s.%s.png", file_prefix ? file_prefix : "device", test_id, name);
    snprintf(path, sizeof(path), "%s/%s", directory, file);
    sha256_hex(png, size, hex);
    bool written = write_file(path, png, size, error, sizeof(error));
    free(png);
    cJSON_AddStringToObject(entry, "file", file);
    if (!written) {
        cJSON_AddStringToObject(entry, "error", error);
        return false;
    }
    cJSON_AddStringToObject(entry, "sha256", hex);
    cJSON_AddNumberToObject(entry, "bytes", (double)size);
    cJSON_AddNumberToObject(entry, "width", width);
    cJSON_AddNumberToObject(entry, "height", height);
    return true;
}

bool artifacts_write_codes(cJSON *evidence, const char *name, const char *what, uint32_t width, uint32_t height,
                           const void *codes, unsigned stride, const struct artifact_palette *palette,
                           unsigned palette_size)
{
    cJSON *entry = artifact_entry(evidence, name, what);
    if (entry == NULL)
        return true;
    size_t texels = (size_t)width * height;
    uint8_t *rgb = malloc(texels * 3 + 1);
    if (rgb == NULL) {
        cJSON_AddStringToObject(entry, "error", "out of memory");
        return false;
    }
    for (size_t i = 0; i < texels; ++i) {
        static const uint8_t unknown[3] = {255, 0, 255};
        const uint8_t *colour = unknown;
        uint32_t code = code_at(codes, stride, i);
        for (unsigned k = 0; k < palette_size; ++k)
            if (palette[k].code == code)
                colour = palette[k].rgb;
        memcpy(rgb + i * 3, colour, 3);
    }
    bool written = write_rgb(entry, name, rgb, width, height);
    free(rgb);
    return written;
}

bool artifacts_write_rgb(cJSON *evidence, const char *name, const char *what, uint32_t width, uint32_t height,
                         const uint8_t *rgb)
{
    cJSON *entry = artifact_entry(evidence, name, what);
    return entry == NULL || write_rgb(entry, name, rgb, width, height);
}
