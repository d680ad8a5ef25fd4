/* Buffer contents: DATA ... END, and FILE TEXT|BINARY|PNG beside the script, encoded into the
 * buffer's element layout as they are read (never more than the limits of script.h). */
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

char *parse_read_file(struct parser *p, const struct amber_token *at, const char *path, size_t limit, size_t *size)
{
    if (p->directory == NULL && path[0] != '/') {
        parse_error(p, at, "FILE %s: files are read beside a script, and this one has no folder", path);
        return NULL;
    }
    char full[4096];
    if (path[0] == '/')
        parse_copy(full, sizeof(full), path);
    else if (snprintf(full, sizeof(full), "%s/%s", p->directory, path) >= (int)sizeof(full)) {
        parse_error(p, at, "FILE %s: the path is too long", path);
        return NULL;
    }
    FILE *f = fopen(full, "rb");
    if (f == NULL) {
        parse_error(p, at, "cannot read FILE %s: %s", path, strerror(errno));
        return NULL;
    }
    char *data = NULL;
    size_t length = 0, capacity = 0;
    for (;;) {
        if (length == capacity) {
            if (capacity > limit) {
                free(data);
                fclose(f);
                parse_limit(p, at, "FILE %s is larger than preflight's limit of %zu MiB", path, limit >> 20);
                return NULL;
            }
            capacity = capacity ? capacity * 2 : 65536;
            char *bigger = realloc(data, capacity + 1);
            if (bigger == NULL) {
                free(data);
                fclose(f);
                parse_limit(p, at, "out of memory reading FILE %s", path);
                return NULL;
            }
            data = bigger;
        }
        size_t n = fread(data + length, 1, capacity - length, f);
        length += n;
        if (n == 0)
            break;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed || length > limit) {
        free(data);
        if (failed)
            parse_error(p, at, "cannot read FILE %s", path);
        else
            parse_limit(p, at, "FILE %s is larger than preflight's limit of %zu MiB", path, limit >> 20);
        return NULL;
    }
    data[length] = '\0';
    *size = length;
    return data;
}

/* Values from `lexer` into the buffer's elements, until END (DATA) or the end of the text (FILE TEXT). */
static bool encode_values(struct parser *p, struct amber_lexer *lexer, struct amber_buffer *b,
                          const struct amber_token *start, bool until_end, const char *what)
{
    const struct amber_layout *layout = &b->layout;
    struct amber_segment word;
    const struct amber_segment *inputs;
    uint32_t input_count = amber_layout_inputs(layout, &word, &inputs);
    uint8_t *bytes = NULL;
    uint64_t elements = 0, capacity = 0;
    uint32_t segment = 0;
    struct amber_token t;
    char error[160];
    for (;;) {
        amber_lexer_next(lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE)
            continue;
        if (t.kind == AMBER_TOKEN_END_OF_FILE) {
            if (!until_end)
                break;
            free(bytes);
            return parse_error(p, start, "%s %s: DATA has no END", b->dimension ? "IMAGE" : "BUFFER", b->name);
        }
        if (until_end && amber_word_is(&t, "END"))
            break;
        struct amber_number n;
        if (!parse_number_token(&t, &n)) {
            free(bytes);
            return parse_error(p, until_end ? &t : start, "%s: expected a number%s, got '%s'%s", what,
                               until_end ? " or END" : "", t.kind == AMBER_TOKEN_STRING ? "a string" : t.text,
                               until_end ? "" : " in the file");
        }
        if (segment == 0) {
            if ((elements + 1) * layout->stride > AMBER_MAX_BUFFER_BYTES) {
                free(bytes);
                return parse_limit(p, start, "%s %s: DATA beyond preflight's limit of %llu MiB per buffer",
                                   b->dimension ? "IMAGE" : "BUFFER", b->name, AMBER_MAX_BUFFER_BYTES >> 20);
            }
            if (elements == capacity) {
                capacity = capacity ? capacity * 2 : 64;
                uint8_t *bigger = realloc(bytes, capacity * layout->stride);
                if (bigger == NULL) {
                    free(bytes);
                    return parse_limit(p, start, "out of memory for DATA");
                }
                bytes = bigger;
            }
            memset(bytes + elements * layout->stride, 0, layout->stride);
            ++elements;
        }
        uint8_t *element = bytes + (elements - 1) * layout->stride;
        if (!amber_encode(&inputs[segment], &n, element, error, sizeof(error))) {
            free(bytes);
            return parse_error(p, until_end ? &t : start, "%s: %s", what, error);
        }
        segment = (segment + 1) % input_count;
    }
    if (segment != 0) {
        free(bytes);
        char type[160];
        amber_type_describe(&b->type, p->script->structs, type, sizeof(type));
        return parse_error(p, until_end ? &t : start,
                           "%s: the values end inside an element: %s takes %u values per element", what, type,
                           input_count);
    }
    free(b->bytes);
    b->bytes = bytes;
    b->element_count = elements;
    b->init = AMBER_INIT_BYTES;
    return true;
}

bool parse_data_block(struct parser *p, struct amber_buffer *b, const struct amber_token *start)
{
    char what[AMBER_NAME_MAX + 16];
    snprintf(what, sizeof(what), "DATA of %s", b->name);
    return encode_values(p, &p->lexer, b, start, true, what) && parse_end_of_line(p, "END");
}

/* The PNG as RGBA8 rows; NULL (with a message) when it is not one libpng can read. */
static uint8_t *decode_png(const char *data, size_t size, uint32_t *width, uint32_t *height, char *error,
                           size_t error_size)
{
    png_image image;
    memset(&image, 0, sizeof(image));
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        snprintf(error, error_size, "not a PNG libpng can read (%s)", image.message);
        return NULL;
    }
    if (image.width == 0 || image.height == 0 || image.width > AMBER_MAX_IMAGE_SIDE ||
        image.height > AMBER_MAX_IMAGE_SIDE || (uint64_t)image.width * image.height * 4 > AMBER_MAX_BUFFER_BYTES) {
        snprintf(error, error_size, "a %ux%u image is beyond preflight's limits", image.width, image.height);
        png_image_free(&image);
        return NULL;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (pixels == NULL || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
        snprintf(error, error_size, "libpng could not decode it (%s)", image.message);
        free(pixels);
        png_image_free(&image);
        return NULL;
    }
    *width = image.width;
    *height = image.height;
    return pixels;
}

bool parse_file_initializer(struct parser *p, struct amber_buffer *b)
{
    struct amber_token kind, path;
    if (!parse_word(p, &kind, "TEXT, BINARY, PNG or a file name"))
        return false;
    path = kind;
    bool text = amber_word_is(&kind, "TEXT"), binary = amber_word_is(&kind, "BINARY");
    bool png = amber_word_is(&kind, "PNG") || (!text && !binary);
    if (text || binary || amber_word_is(&kind, "PNG"))
        if (!parse_word(p, &path, "a file name"))
            return false;
    if (!parse_end_of_line(p, "FILE's name"))
        return false;
    size_t size = 0;
    char *data = parse_read_file(p, &path, path.text, AMBER_MAX_BUFFER_BYTES, &size);
    if (data == NULL)
        return false;
    bool ok = true;
    if (text) {
        struct amber_lexer lexer;
        amber_lexer_init(&lexer, data, size);
        char what[AMBER_TOKEN_MAX + 32];
        snprintf(what, sizeof(what), "FILE TEXT %s", path.text);
        ok = encode_values(p, &lexer, b, &path, false, what);
    } else if (binary) {
        if (size % b->layout.stride != 0) {
            ok = parse_error(p, &path, "FILE BINARY %s has %zu bytes: not a whole number of %u-byte elements",
                             path.text, size, b->layout.stride);
        } else {
            free(b->bytes);
            b->bytes = (uint8_t *)data;
            data = NULL;
            b->element_count = size / b->layout.stride;
            b->init = AMBER_INIT_BYTES;
        }
    } else if (png) {
        VkFormat f = b->layout.format;
        bool rgba = f == VK_FORMAT_R8G8B8A8_UNORM || f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_R8G8B8A8_UINT;
        bool bgra = f == VK_FORMAT_B8G8R8A8_UNORM || f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UINT;
        char error[256];
        uint32_t width = 0, height = 0;
        uint8_t *pixels = rgba || bgra ? decode_png(data, size, &width, &height, error, sizeof(error)) : NULL;
        if (!rgba && !bgra) {
            ok = parse_error(p, &path, "FILE PNG %s needs a FORMAT of 8-bit RGBA or BGRA, not %s", path.text,
                             amber_format_name(f));
        } else if (pixels == NULL) {
            ok = parse_error(p, &path, "FILE PNG %s: %s", path.text, error);
        } else {
            if (bgra)
                for (size_t i = 0; i < (size_t)width * height; ++i) {
                    uint8_t r = pixels[i * 4];
                    pixels[i * 4] = pixels[i * 4 + 2];
                    pixels[i * 4 + 2] = r;
                }
            free(b->bytes);
            b->bytes = pixels;
            b->width = width;
            b->height = height;
            b->depth = 1;
            b->dimension = AMBER_DIM_2D;
            b->element_count = (uint64_t)width * height;
            b->init = AMBER_INIT_BYTES;
        }
    }
    free(data);
    return ok;
}
