#include "types.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_json.h"

/* --- numbers --------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    uint8_t mode, bits;
} scalars[] = {
    {"int8", AMBER_MODE_SINT, 8},     {"int16", AMBER_MODE_SINT, 16},    {"int32", AMBER_MODE_SINT, 32},
    {"int64", AMBER_MODE_SINT, 64},   {"uint8", AMBER_MODE_UINT, 8},     {"uint16", AMBER_MODE_UINT, 16},
    {"uint32", AMBER_MODE_UINT, 32},  {"uint64", AMBER_MODE_UINT, 64},   {"float16", AMBER_MODE_SFLOAT, 16},
    {"float", AMBER_MODE_SFLOAT, 32}, {"double", AMBER_MODE_SFLOAT, 64},
};

static bool scalar_parse(const char *word, size_t length, struct amber_type *type)
{
    for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); ++i) {
        if (strlen(scalars[i].name) == length && strncmp(word, scalars[i].name, length) == 0) {
            type->kind = AMBER_TYPE_NUMBER;
            type->mode = scalars[i].mode;
            type->bits = scalars[i].bits;
            type->rows = type->columns = 1;
            return true;
        }
    }
    return false;
}

bool amber_mode_is_float(uint8_t mode)
{
    return mode == AMBER_MODE_SFLOAT || mode == AMBER_MODE_UFLOAT;
}

bool amber_mode_is_signed(uint8_t mode)
{
    return mode == AMBER_MODE_SINT || mode == AMBER_MODE_SNORM || mode == AMBER_MODE_SSCALED;
}

/* --- formats --------------------------------------------------------------------------------- */

/* Every format AmberScript names is a core Vulkan 1.0 format: values 1..184. */
#define CORE_FORMAT_LAST 184

VkFormat amber_format_from_name(const char *name)
{
    for (int64_t v = 1; v <= CORE_FORMAT_LAST; ++v) {
        const char *full = vkjson_name_VkFormat(v);
        if (full != NULL && strncmp(full, "VK_FORMAT_", 10) == 0 && strcmp(full + 10, name) == 0)
            return (VkFormat)v;
    }
    return VK_FORMAT_UNDEFINED;
}

const char *amber_format_name(VkFormat format)
{
    const char *full = vkjson_name_VkFormat(format);
    return full != NULL && strncmp(full, "VK_FORMAT_", 10) == 0 ? full + 10 : "UNKNOWN";
}

bool amber_format_has_depth(VkFormat format)
{
    return format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_X8_D24_UNORM_PACK32 || format == VK_FORMAT_D32_SFLOAT ||
           format == VK_FORMAT_D16_UNORM_S8_UINT || format == VK_FORMAT_D24_UNORM_S8_UINT ||
           format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

bool amber_format_has_stencil(VkFormat format)
{
    return format == VK_FORMAT_S8_UINT || format == VK_FORMAT_D16_UNORM_S8_UINT ||
           format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

bool amber_format_is_depth_stencil(VkFormat format)
{
    return amber_format_has_depth(format) || amber_format_has_stencil(format);
}

static bool mode_parse(const char *word, uint8_t *mode)
{
    static const struct {
        const char *name;
        uint8_t mode;
    } modes[] = {
        {"UINT", AMBER_MODE_UINT},     {"SINT", AMBER_MODE_SINT},       {"UNORM", AMBER_MODE_UNORM},
        {"SNORM", AMBER_MODE_SNORM},   {"USCALED", AMBER_MODE_USCALED}, {"SSCALED", AMBER_MODE_SSCALED},
        {"UFLOAT", AMBER_MODE_UFLOAT}, {"SFLOAT", AMBER_MODE_SFLOAT},   {"SRGB", AMBER_MODE_SRGB},
    };
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); ++i)
        if (strcmp(word, modes[i].name) == 0) {
            *mode = modes[i].mode;
            return true;
        }
    return false;
}

/* "R8G8B8A8" -> channels and sizes; false for anything else. */
static int channels_parse(const char *word, uint8_t *channels, uint8_t *bits, int max)
{
    int count = 0;
    for (const char *c = word; *c;) {
        uint8_t channel;
        switch (*c) {
        case 'R':
            channel = AMBER_CHANNEL_R;
            break;
        case 'G':
            channel = AMBER_CHANNEL_G;
            break;
        case 'B':
            channel = AMBER_CHANNEL_B;
            break;
        case 'A':
            channel = AMBER_CHANNEL_A;
            break;
        case 'D':
            channel = AMBER_CHANNEL_D;
            break;
        case 'S':
            channel = AMBER_CHANNEL_S;
            break;
        case 'X':
            channel = AMBER_CHANNEL_NONE;
            break; /* unused bits */
        default:
            return -1;
        }
        ++c;
        unsigned size = 0;
        if (*c < '0' || *c > '9')
            return -1;
        while (*c >= '0' && *c <= '9')
            size = size * 10 + (unsigned)(*c++ - '0');
        if (count == max || size == 0 || size > 64)
            return -1;
        channels[count] = channel;
        bits[count++] = (uint8_t)size;
    }
    return count;
}

/* The segments of a format's texel, in memory order. Depth/stencil formats lie as docs/amber.md
 * says: the depth value from bit 0, the stencil byte after it. */
static bool format_layout(VkFormat format, struct amber_layout *layout)
{
    layout->format = format;
    layout->is_format = true;
    if (format == VK_FORMAT_X8_D24_UNORM_PACK32) { /* the depth in the low 24 bits */
        layout->segments = calloc(1, sizeof(*layout->segments));
        if (layout->segments == NULL)
            return false;
        layout->segments[0] = (struct amber_segment){0, 24, AMBER_MODE_UNORM, AMBER_CHANNEL_D};
        layout->count = 1;
        layout->stride = 4;
        return true;
    }
    char name[64];
    snprintf(name, sizeof(name), "%s", amber_format_name(format));
    char *parts[6];
    int part_count = 0;
    char *save = NULL;
    for (char *p = strtok_r(name, "_", &save); p && part_count < 6; p = strtok_r(NULL, "_", &save))
        parts[part_count++] = p;
    if (part_count < 2)
        return false;
    uint8_t channels[8], bits[8], modes[8];
    int count = channels_parse(parts[0], channels, bits, 6);
    uint8_t mode;
    if (count <= 0 || !mode_parse(parts[1], &mode))
        return false;
    for (int i = 0; i < count; ++i)
        modes[i] = channels[i] == AMBER_CHANNEL_S ? AMBER_MODE_UINT : mode;
    int next = 2;
    uint8_t stencil_mode;
    if (next + 1 < part_count && parts[next][0] == 'S' && mode_parse(parts[next + 1], &stencil_mode)) {
        /* D24_UNORM_S8_UINT: a second channel group */
        if (channels_parse(parts[next], channels + count, bits + count, 1) != 1)
            return false;
        modes[count++] = AMBER_MODE_UINT;
        next += 2;
    }
    unsigned pack = 0;
    if (next < part_count && strncmp(parts[next], "PACK", 4) == 0)
        pack = (unsigned)atoi(parts[next] + 4);
    layout->segments = calloc((size_t)count, sizeof(*layout->segments));
    if (layout->segments == NULL)
        return false;
    uint32_t total = 0;
    for (int i = 0; i < count; ++i)
        total += bits[i];
    if (pack != 0 && total != pack)
        return false;
    uint32_t at = 0;
    for (int i = 0; i < count; ++i) {
        uint32_t offset = pack ? pack - at - bits[i] : at; /* packed: the first channel is the highest */
        if (channels[i] == AMBER_CHANNEL_S && amber_format_has_depth(format))
            offset = format == VK_FORMAT_D32_SFLOAT_S8_UINT ? 32 : format == VK_FORMAT_D24_UNORM_S8_UINT ? 24 : 16;
        layout->segments[layout->count++] = (struct amber_segment){offset, bits[i], modes[i], channels[i]};
        at += bits[i];
    }
    if (pack)
        layout->stride = pack / 8;
    else if (format == VK_FORMAT_D32_SFLOAT_S8_UINT)
        layout->stride = 8;
    else if (format == VK_FORMAT_D16_UNORM_S8_UINT)
        layout->stride = 4;
    else
        layout->stride = (total + 7) / 8;
    return layout->stride > 0;
}

/* --- type names ------------------------------------------------------------------------------ */

bool amber_type_parse(const char *word, const struct amber_struct *structs, uint32_t struct_count,
                      struct amber_type *type)
{
    memset(type, 0, sizeof(*type));
    size_t length = strlen(word);
    if (length > 2 && strcmp(word + length - 2, "[]") == 0) {
        type->array = true;
        length -= 2;
    }
    char base[128];
    if (length >= sizeof(base))
        return false;
    memcpy(base, word, length);
    base[length] = '\0';
    for (uint32_t i = 0; i < struct_count; ++i)
        if (strcmp(structs[i].name, base) == 0) {
            type->kind = AMBER_TYPE_STRUCT;
            type->struct_index = i;
            return true;
        }
    if (scalar_parse(base, length, type)) {
        type->array = word[length] == '[';
        return true;
    }
    bool array = type->array;
    if (strncmp(base, "vec", 3) == 0 && base[3] >= '2' && base[3] <= '4' && base[4] == '<' && base[length - 1] == '>') {
        if (!scalar_parse(base + 5, length - 6, type))
            return false;
        type->rows = (uint8_t)(base[3] - '0');
        type->array = array;
        return true;
    }
    if (strncmp(base, "mat", 3) == 0 && base[3] >= '2' && base[3] <= '4' && base[4] == 'x' && base[5] >= '2' &&
        base[5] <= '4' && base[6] == '<' && base[length - 1] == '>') {
        if (!scalar_parse(base + 7, length - 8, type))
            return false;
        type->columns = (uint8_t)(base[3] - '0');
        type->rows = (uint8_t)(base[5] - '0');
        type->array = array;
        return true;
    }
    VkFormat format = amber_format_from_name(base);
    if (format == VK_FORMAT_UNDEFINED)
        return false;
    struct amber_layout probe = {0};
    bool known = format_layout(format, &probe);
    amber_layout_free(&probe);
    if (!known)
        return false;
    type->kind = AMBER_TYPE_FORMAT;
    type->format = format;
    type->array = array;
    return true;
}

void amber_type_describe(const struct amber_type *type, const struct amber_struct *structs, char *out, size_t size)
{
    const char *scalar = "?";
    for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); ++i)
        if (scalars[i].mode == type->mode && scalars[i].bits == type->bits)
            scalar = scalars[i].name;
    const char *suffix = type->array ? "[]" : "";
    if (type->kind == AMBER_TYPE_STRUCT)
        snprintf(out, size, "%s%s", structs ? structs[type->struct_index].name : "STRUCT", suffix);
    else if (type->kind == AMBER_TYPE_FORMAT)
        snprintf(out, size, "%s%s", amber_format_name(type->format), suffix);
    else if (type->columns > 1)
        snprintf(out, size, "mat%ux%u<%s>%s", type->columns, type->rows, scalar, suffix);
    else if (type->rows > 1)
        snprintf(out, size, "vec%u<%s>%s", type->rows, scalar, suffix);
    else
        snprintf(out, size, "%s%s", scalar, suffix);
}

/* --- layouts --------------------------------------------------------------------------------- */

struct builder {
    struct amber_segment *segments;
    uint32_t count, capacity;
    bool std140;
    const struct amber_struct *structs;
    uint32_t struct_count;
    char *error;
    size_t error_size;
};

static uint32_t round_up(uint32_t value, uint32_t alignment)
{
    return alignment ? (value + alignment - 1) / alignment * alignment : value;
}

static bool add_segment(struct builder *b, uint64_t byte_offset, uint8_t bits, uint8_t mode)
{
    if (b->count == AMBER_MAX_SEGMENTS || byte_offset > UINT32_MAX / 8) {
        snprintf(b->error, b->error_size, "an element of more than %d values or bytes is beyond the limit",
                 AMBER_MAX_SEGMENTS);
        return false;
    }
    if (b->count == b->capacity) {
        uint32_t capacity = b->capacity ? b->capacity * 2 : 16;
        struct amber_segment *bigger = realloc(b->segments, capacity * sizeof(*bigger));
        if (bigger == NULL) {
            snprintf(b->error, b->error_size, "out of memory");
            return false;
        }
        b->segments = bigger;
        b->capacity = capacity;
    }
    b->segments[b->count++] = (struct amber_segment){(uint32_t)(byte_offset * 8), bits, mode, AMBER_CHANNEL_NONE};
    return true;
}

static uint32_t vector_alignment(const struct amber_type *t)
{
    uint32_t scalar = t->bits / 8;
    return (t->rows == 3 ? 4 : t->rows) * scalar;
}

static uint32_t column_stride(const struct builder *b, const struct amber_type *t)
{
    uint32_t stride = vector_alignment(t);
    return b->std140 ? round_up(stride, 16) : stride;
}

static uint32_t struct_alignment(const struct builder *b, const struct amber_struct *s, int depth);

/* The base alignment of a STRUCT member's type. */
static uint32_t member_alignment(const struct builder *b, const struct amber_type *t, int depth)
{
    if (t->kind == AMBER_TYPE_STRUCT) {
        uint32_t a = struct_alignment(b, &b->structs[t->struct_index], depth + 1);
        return b->std140 ? round_up(a, 16) : a;
    }
    if (t->kind == AMBER_TYPE_FORMAT)
        return 4;
    if (t->columns > 1)
        return column_stride(b, t);
    return t->rows > 1 ? vector_alignment(t) : t->bits / 8;
}

static uint32_t struct_alignment(const struct builder *b, const struct amber_struct *s, int depth)
{
    uint32_t alignment = 1;
    if (depth > AMBER_MAX_STRUCT_DEPTH)
        return alignment;
    for (uint32_t i = 0; i < s->member_count; ++i) {
        uint32_t a = member_alignment(b, &s->members[i].type, depth);
        alignment = a > alignment ? a : alignment;
    }
    return alignment;
}

/* Adds the values of `t` placed at `offset`; `*size` is the bytes it spans (padded as a member). */
static bool add_type(struct builder *b, const struct amber_type *t, uint64_t offset, int64_t matrix_stride, int depth,
                     uint64_t *size);

static bool add_struct(struct builder *b, const struct amber_struct *s, uint64_t offset, int depth, uint64_t *size)
{
    if (depth > AMBER_MAX_STRUCT_DEPTH) {
        snprintf(b->error, b->error_size, "STRUCT %s nests deeper than %d", s->name, AMBER_MAX_STRUCT_DEPTH);
        return false;
    }
    uint64_t at = 0;
    for (uint32_t i = 0; i < s->member_count; ++i) {
        const struct amber_struct_member *m = &s->members[i];
        if (m->offset >= 0) {
            if ((uint64_t)m->offset < at) {
                snprintf(b->error, b->error_size, "STRUCT %s: member %s at OFFSET %lld overlaps the member before it",
                         s->name, m->name, (long long)m->offset);
                return false;
            }
            at = (uint64_t)m->offset;
        } else {
            at = round_up((uint32_t)at, member_alignment(b, &m->type, depth));
        }
        uint64_t member_size = 0;
        if (!add_type(b, &m->type, offset + at, m->matrix_stride, depth + 1, &member_size))
            return false;
        at += member_size;
        if (at > UINT32_MAX / 16) {
            snprintf(b->error, b->error_size, "STRUCT %s is too large", s->name);
            return false;
        }
    }
    uint32_t alignment = struct_alignment(b, s, depth);
    if (b->std140)
        alignment = round_up(alignment, 16);
    uint64_t rounded = round_up((uint32_t)at, alignment);
    if (s->stride >= 0) {
        if ((uint64_t)s->stride < at) {
            snprintf(b->error, b->error_size, "STRUCT %s: STRIDE %lld is smaller than its members (%llu bytes)",
                     s->name, (long long)s->stride, (unsigned long long)at);
            return false;
        }
        rounded = (uint64_t)s->stride;
    }
    *size = rounded;
    return true;
}

static bool add_type(struct builder *b, const struct amber_type *t, uint64_t offset, int64_t matrix_stride, int depth,
                     uint64_t *size)
{
    if (t->kind == AMBER_TYPE_STRUCT)
        return add_struct(b, &b->structs[t->struct_index], offset, depth, size);
    if (t->kind == AMBER_TYPE_FORMAT) {
        struct amber_layout f = {0};
        if (!format_layout(t->format, &f))
            return false;
        bool ok = true;
        for (uint32_t i = 0; i < f.count && ok; ++i) {
            ok = add_segment(b, offset, f.segments[i].bits, f.segments[i].mode);
            if (ok) {
                b->segments[b->count - 1].bit_offset += f.segments[i].bit_offset;
                b->segments[b->count - 1].channel = f.segments[i].channel;
            }
        }
        *size = f.stride;
        amber_layout_free(&f);
        return ok;
    }
    uint32_t scalar = t->bits / 8;
    uint32_t columns_stride = matrix_stride >= 0 ? (uint32_t)matrix_stride : column_stride(b, t);
    for (uint32_t c = 0; c < t->columns; ++c)
        for (uint32_t r = 0; r < t->rows; ++r)
            if (!add_segment(b, offset + (uint64_t)c * columns_stride + (uint64_t)r * scalar, t->bits, t->mode))
                return false;
    if (t->columns > 1)
        *size = (uint64_t)t->columns * columns_stride;
    else
        *size = (uint64_t)t->rows * scalar;
    return true;
}

/* The Vulkan format of a number type whose values are all alike (vertex attributes). */
static VkFormat number_format(const struct amber_type *t)
{
    if (t->kind != AMBER_TYPE_NUMBER || t->columns > 1)
        return VK_FORMAT_UNDEFINED;
    static const char *const modes[] = {
        [AMBER_MODE_UINT] = "UINT", [AMBER_MODE_SINT] = "SINT", [AMBER_MODE_SFLOAT] = "SFLOAT"};
    if (t->mode >= sizeof(modes) / sizeof(modes[0]) || modes[t->mode] == NULL)
        return VK_FORMAT_UNDEFINED;
    char name[64];
    int at = 0;
    const char channels[] = "RGBA";
    for (uint32_t i = 0; i < t->rows; ++i)
        at += snprintf(name + at, sizeof(name) - (size_t)at, "%c%u", channels[i], t->bits);
    snprintf(name + at, sizeof(name) - (size_t)at, "_%s", modes[t->mode]);
    return amber_format_from_name(name);
}

bool amber_layout_build(const struct amber_type *type, bool std140, const struct amber_struct *structs,
                        uint32_t struct_count, struct amber_layout *layout, char *error, size_t error_size)
{
    memset(layout, 0, sizeof(*layout));
    struct builder b = {
        .std140 = std140, .structs = structs, .struct_count = struct_count, .error = error, .error_size = error_size};
    uint64_t size = 0;
    if (!add_type(&b, type, 0, -1, 0, &size)) {
        free(b.segments);
        return false;
    }
    /* the padding of elements of their own (docs/amber.md "Memory layout") */
    uint32_t stride = (uint32_t)size;
    if (type->kind == AMBER_TYPE_NUMBER) {
        if (type->columns == 1 && type->rows == 3)
            stride = vector_alignment(type);
        if (std140 && (type->array || type->columns > 1))
            stride = round_up(stride, 16);
    } else if (type->kind == AMBER_TYPE_STRUCT && std140) {
        stride = round_up(stride, 16);
    }
    layout->segments = b.segments;
    layout->count = b.count;
    layout->stride = stride;
    layout->format = type->kind == AMBER_TYPE_FORMAT ? type->format : number_format(type);
    layout->is_format = type->kind == AMBER_TYPE_FORMAT;
    if (stride == 0) {
        snprintf(error, error_size, "a type of no bytes");
        amber_layout_free(layout);
        return false;
    }
    return true;
}

void amber_layout_free(struct amber_layout *layout)
{
    free(layout->segments);
    layout->segments = NULL;
    layout->count = 0;
}

bool amber_layout_copy(struct amber_layout *to, const struct amber_layout *from)
{
    *to = *from;
    to->segments = malloc((from->count ? from->count : 1) * sizeof(*to->segments));
    if (to->segments == NULL)
        return false;
    memcpy(to->segments, from->segments, from->count * sizeof(*to->segments));
    return true;
}

bool amber_layout_equal(const struct amber_layout *a, const struct amber_layout *b)
{
    if (a->stride != b->stride || a->count != b->count)
        return false;
    for (uint32_t i = 0; i < a->count; ++i) {
        const struct amber_segment *x = &a->segments[i], *y = &b->segments[i];
        if (x->bit_offset != y->bit_offset || x->bits != y->bits || x->mode != y->mode || x->channel != y->channel)
            return false;
    }
    return true;
}

/* --- values ---------------------------------------------------------------------------------- */

uint16_t amber_float_to_half(float value)
{
    uint32_t f;
    memcpy(&f, &value, sizeof(f));
    uint32_t sign = (f >> 16) & 0x8000u;
    int32_t exponent = (int32_t)((f >> 23) & 0xFF) - 127 + 15;
    uint32_t mantissa = f & 0x7FFFFFu;
    if (((f >> 23) & 0xFF) == 0xFF) /* inf, nan */
        return (uint16_t)(sign | 0x7C00u | (mantissa ? 0x200u : 0));
    if (exponent >= 31)
        return (uint16_t)(sign | 0x7C00u);
    if (exponent <= 0) {
        if (exponent < -10)
            return (uint16_t)sign;
        mantissa |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exponent);
        uint32_t half = mantissa >> shift;
        uint32_t rest = mantissa & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1)))
            ++half;
        return (uint16_t)(sign | half);
    }
    uint32_t half = sign | ((uint32_t)exponent << 10) | (mantissa >> 13);
    uint32_t rest = mantissa & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        ++half; /* may carry into the exponent: still the right rounding */
    return (uint16_t)half;
}

float amber_half_to_float(uint16_t half)
{
    uint32_t sign = (uint32_t)(half & 0x8000u) << 16;
    uint32_t exponent = (half >> 10) & 0x1F;
    uint32_t mantissa = half & 0x3FFu;
    uint32_t f;
    if (exponent == 0) {
        if (mantissa == 0) {
            f = sign;
        } else {
            int e = -1;
            do {
                ++e;
                mantissa <<= 1;
            } while ((mantissa & 0x400u) == 0);
            f = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mantissa & 0x3FFu) << 13);
        }
    } else if (exponent == 31) {
        f = sign | 0x7F800000u | (mantissa << 13);
    } else {
        f = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    float value;
    memcpy(&value, &f, sizeof(value));
    return value;
}

double amber_number_as_double(const struct amber_number *n)
{
    if (n->is_float)
        return n->value;
    return n->negative ? -(double)n->magnitude : (double)n->magnitude;
}

static void write_bits(uint8_t *element, uint32_t bit_offset, uint8_t bits, uint64_t value)
{
    if (bits < 64)
        value &= (1ull << bits) - 1;
    if (bit_offset % 8 == 0 && bits % 8 == 0) {
        for (uint32_t i = 0; i < bits / 8u; ++i)
            element[bit_offset / 8 + i] = (uint8_t)(value >> (8 * i));
        return;
    }
    for (uint32_t i = 0; i < bits; ++i) {
        uint32_t at = bit_offset + i;
        uint8_t mask = (uint8_t)(1u << (at % 8));
        if ((value >> i) & 1)
            element[at / 8] |= mask;
        else
            element[at / 8] &= (uint8_t)~mask;
    }
}

static uint64_t read_bits(const uint8_t *element, uint32_t bit_offset, uint8_t bits)
{
    uint64_t value = 0;
    if (bit_offset % 8 == 0 && bits % 8 == 0) {
        for (uint32_t i = 0; i < bits / 8u; ++i)
            value |= (uint64_t)element[bit_offset / 8 + i] << (8 * i);
        return value;
    }
    for (uint32_t i = 0; i < bits; ++i) {
        uint32_t at = bit_offset + i;
        value |= (uint64_t)((element[at / 8] >> (at % 8)) & 1) << i;
    }
    return value;
}

/* A float as the small unsigned floats of packed formats keep it (10 and 11 bits, no sign). */
static uint64_t float_to_small(double value, uint8_t bits)
{
    if (!(value > 0))
        return 0;
    uint16_t half = amber_float_to_half((float)value);
    return bits == 11 ? (half >> 4) & 0x7FFu : (half >> 5) & 0x3FFu;
}

static double small_to_float(uint64_t bits_value, uint8_t bits)
{
    uint16_t half = (uint16_t)(bits == 11 ? bits_value << 4 : bits_value << 5);
    return amber_half_to_float(half);
}

/* A float16 value as Amber writes it into a buffer: the float's mantissa cut to 10 bits, not
 * rounded (the CTS's expected values were computed from inputs so stored: rounding instead moves
 * a determinant of fp16 matrices by more than its TOLERANCE). Outside the normal halves (zero,
 * subnormals, infinities, NaN, too large), where Amber's conversion has no defined result, the
 * nearest half. */
static uint16_t half_as_amber_stores(float value)
{
    uint32_t f;
    memcpy(&f, &value, sizeof(f));
    int32_t exponent = (int32_t)((f >> 23) & 0xFF) - 127 + 15;
    if (exponent < 1 || exponent > 30)
        return amber_float_to_half(value);
    return (uint16_t)(((f >> 16) & 0x8000u) | ((uint32_t)exponent << 10) | ((f & 0x7FFFFFu) >> 13));
}

bool amber_encode(const struct amber_segment *segment, const struct amber_number *n, uint8_t *element, char *error,
                  size_t error_size)
{
    if (amber_mode_is_float(segment->mode)) {
        double value = amber_number_as_double(n);
        uint64_t bits;
        if (segment->bits == 64) {
            memcpy(&bits, &value, sizeof(bits));
        } else if (segment->bits == 32) {
            float f = (float)value;
            uint32_t b;
            memcpy(&b, &f, sizeof(b));
            bits = b;
        } else if (segment->bits == 16) {
            bits = half_as_amber_stores((float)value);
        } else {
            bits = float_to_small(value, segment->bits);
        }
        write_bits(element, segment->bit_offset, segment->bits, bits);
        return true;
    }
    uint64_t magnitude = n->magnitude;
    bool negative = n->negative;
    if (n->is_float) {
        /* a whole number written with a point ("FILL 0.0" of an integer type, as Amber's CTS files
         * do) is that integer; a fraction, or a number past 64 bits, is not an integer value */
        double whole = fabs(n->value);
        if (n->value != floor(n->value) || !(whole < 18446744073709551616.0)) {
            if (n->value == floor(n->value))
                snprintf(error, error_size, "%.17g does not fit in 64 bits", n->value);
            else
                snprintf(error, error_size, "%g is not an integer, as a %u-bit integer value must be", n->value,
                         segment->bits);
            return false;
        }
        magnitude = (uint64_t)whole;
        negative = n->value < 0;
    }
    /* Amber keeps the low bits of a value wider than its type ("272" in 8 bits is 16, "-1" all
     * ones; C's conversion to the narrower type), and so does preflight */
    uint64_t bits = negative ? (uint64_t)0 - magnitude : magnitude;
    write_bits(element, segment->bit_offset, segment->bits, bits);
    return true;
}

uint32_t amber_layout_inputs(const struct amber_layout *layout, struct amber_segment *word,
                             const struct amber_segment **segments)
{
    const char *name = layout->is_format ? amber_format_name(layout->format) : NULL;
    /* depth formats keep their depth value (X8_D24's top byte is undefined after a copy) */
    if (name != NULL && strstr(name, "_PACK") != NULL && !amber_format_is_depth_stencil(layout->format)) {
        *word = (struct amber_segment){0, (uint8_t)(layout->stride * 8), AMBER_MODE_UINT, AMBER_CHANNEL_NONE};
        *segments = word;
        return 1;
    }
    *segments = layout->segments;
    return layout->count;
}

struct amber_value amber_decode(const struct amber_segment *segment, const uint8_t *element)
{
    struct amber_value v = {0};
    uint64_t bits = read_bits(element, segment->bit_offset, segment->bits);
    if (amber_mode_is_float(segment->mode)) {
        v.is_float = true;
        if (segment->bits == 64) {
            memcpy(&v.value, &bits, sizeof(v.value));
        } else if (segment->bits == 32) {
            uint32_t b = (uint32_t)bits;
            float f;
            memcpy(&f, &b, sizeof(f));
            v.value = f;
        } else if (segment->bits == 16) {
            v.value = amber_half_to_float((uint16_t)bits);
        } else {
            v.value = small_to_float(bits, segment->bits);
        }
        v.bits = bits;
        return v;
    }
    if (amber_mode_is_signed(segment->mode) && segment->bits < 64 && (bits >> (segment->bits - 1)) & 1)
        bits |= ~((1ull << segment->bits) - 1); /* sign extension */
    v.bits = bits;
    v.value = amber_mode_is_signed(segment->mode) ? (double)(int64_t)bits : (double)bits;
    return v;
}

double amber_decode_normalized(const struct amber_segment *segment, const uint8_t *element)
{
    struct amber_value v = amber_decode(segment, element);
    double max_unsigned = segment->bits >= 64 ? 18446744073709551615.0 : (double)((1ull << segment->bits) - 1);
    switch (segment->mode) {
    case AMBER_MODE_UNORM:
        return v.value / max_unsigned;
    case AMBER_MODE_SNORM: {
        double max = (double)((1ull << (segment->bits - 1)) - 1);
        double value = v.value / max;
        return value < -1.0 ? -1.0 : value;
    }
    case AMBER_MODE_SRGB: {
        double c = v.value / max_unsigned;
        if (segment->channel == AMBER_CHANNEL_A)
            return c;
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
    }
    default:
        return v.value;
    }
}
