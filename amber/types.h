/* AmberScript's data types and how their values lie in memory: scalars, vectors vecN<T>,
 * matrices matCxR<T> (column major), arrays T[], STRUCTs, and image format names
 * (R8G8B8A8_UNORM, ...). A type becomes a layout: the byte stride of one element and where each
 * of its values lies (a segment: bit offset, size, numeric mode, colour channel), after the
 * STD140/STD430 rules of docs/amber.md. Values are encoded into and decoded from such segments
 * here, so buffers, expectations and images all read memory the same way. No Vulkan calls. */
#ifndef PREFLIGHT_AMBER_TYPES_H
#define PREFLIGHT_AMBER_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

enum amber_mode {
    AMBER_MODE_UINT,
    AMBER_MODE_SINT,
    AMBER_MODE_UNORM,
    AMBER_MODE_SNORM,
    AMBER_MODE_USCALED,
    AMBER_MODE_SSCALED,
    AMBER_MODE_UFLOAT,
    AMBER_MODE_SFLOAT,
    AMBER_MODE_SRGB,
};

enum amber_channel {
    AMBER_CHANNEL_NONE, /* a value of a number type */
    AMBER_CHANNEL_R,
    AMBER_CHANNEL_G,
    AMBER_CHANNEL_B,
    AMBER_CHANNEL_A,
    AMBER_CHANNEL_D,
    AMBER_CHANNEL_S,
};

/* One value of an element. */
struct amber_segment {
    uint32_t bit_offset; /* from the element's start */
    uint8_t bits;
    uint8_t mode;    /* enum amber_mode */
    uint8_t channel; /* enum amber_channel */
};

#define AMBER_MAX_SEGMENTS 4096 /* values in one element (a STRUCT can hold many) */
#define AMBER_MAX_STRUCT_DEPTH 16

/* A type as written in a script. */
enum amber_type_kind {
    AMBER_TYPE_NUMBER, /* scalar, vector or matrix */
    AMBER_TYPE_FORMAT, /* an image format name */
    AMBER_TYPE_STRUCT,
};

struct amber_type {
    enum amber_type_kind kind;
    uint8_t mode, bits;    /* AMBER_TYPE_NUMBER: the scalar */
    uint8_t rows, columns; /* scalar 1x1, vecN: N rows 1 column, matCxR: C columns of R rows */
    bool array;            /* T[]: array element padding under STD140 */
    VkFormat format;       /* AMBER_TYPE_FORMAT */
    uint32_t struct_index; /* AMBER_TYPE_STRUCT */
};

struct amber_struct_member {
    char name[128];
    struct amber_type type;
    int64_t offset;        /* -1: after the member before it, aligned */
    int64_t matrix_stride; /* -1: the layout's */
};

struct amber_struct {
    char name[128];
    struct amber_struct_member *members;
    uint32_t member_count;
    int64_t stride; /* STRIDE; -1: computed */
};

struct amber_layout {
    uint32_t stride; /* bytes per element */
    uint32_t count;  /* segments (values) per element */
    struct amber_segment *segments;
    VkFormat format; /* what Vulkan calls the element (vertex attributes, texel buffers, images); 0 if none */
    bool is_format;  /* declared with an image format name */
};

/* Parses a type name: int8..uint64, float16, float, double, vecN<T>, matCxR<T>, T[], a format name
 * or one of `structs`. false when the word is none of them. */
bool amber_type_parse(const char *word, const struct amber_struct *structs, uint32_t struct_count,
                      struct amber_type *type);
/* The element layout of `type`; false with a message when it cannot be laid out (a STRUCT member
 * at an offset before the previous one, too many values, ...). */
bool amber_layout_build(const struct amber_type *type, bool std140, const struct amber_struct *structs,
                        uint32_t struct_count, struct amber_layout *layout, char *error, size_t error_size);
void amber_layout_free(struct amber_layout *layout);
bool amber_layout_copy(struct amber_layout *to, const struct amber_layout *from);
bool amber_layout_equal(const struct amber_layout *a, const struct amber_layout *b);

/* The format's Vulkan value from its AmberScript name (R8G8B8A8_UNORM); 0 when unknown. */
VkFormat amber_format_from_name(const char *name);
/* The name without VK_FORMAT_ (for messages and evidence). */
const char *amber_format_name(VkFormat format);
bool amber_format_is_depth_stencil(VkFormat format);
bool amber_format_has_depth(VkFormat format);
bool amber_format_has_stencil(VkFormat format);

/* A number as written: integer (sign and magnitude, exactly) or floating point. */
struct amber_number {
    bool is_float;
    double value;       /* is_float */
    uint64_t magnitude; /* !is_float */
    bool negative;
};

double amber_number_as_double(const struct amber_number *n);

/* Writes `n` into `segment` of the element at `element`; false (with why) when the value is no
 * integer for an integer segment (a fraction, a number past 64 bits). An integer wider than the
 * segment keeps its low bits, as Amber stores it; a whole number written with a point counts. */
bool amber_encode(const struct amber_segment *segment, const struct amber_number *n, uint8_t *element, char *error,
                  size_t error_size);

/* The values DATA, FILL and SERIES_FROM give one element, as Amber reads them: a packed format's
 * element (A2B10G10R10_UNORM_PACK32, B10G11R11_UFLOAT_PACK32, ...) takes one value, the whole word
 * as an unsigned integer (`word` is set to it); any other layout (depth formats too) its segments.
 * Returns how many. */
uint32_t amber_layout_inputs(const struct amber_layout *layout, struct amber_segment *word,
                             const struct amber_segment **segments);
/* A value read back from memory. */
struct amber_value {
    bool is_float;
    double value;  /* every mode, as a double (integers exactly up to 2^53) */
    uint64_t bits; /* integers: the raw bits, sign-extended for signed modes */
};

struct amber_value amber_decode(const struct amber_segment *segment, const uint8_t *element);
/* A texel's channel as a shader sees it: UNORM/SNORM scaled to [0,1]/[-1,1], SRGB to linear
 * (colour channels), integers and floats as they are. */
double amber_decode_normalized(const struct amber_segment *segment, const uint8_t *element);

/* IEEE half precision: bits <-> float. */
uint16_t amber_float_to_half(float value);
float amber_half_to_float(uint16_t half);

/* Human names for messages: "vec2<float>", "uint8". */
void amber_type_describe(const struct amber_type *type, const struct amber_struct *structs, char *out, size_t size);
bool amber_mode_is_float(uint8_t mode);
bool amber_mode_is_signed(uint8_t mode);

#endif
