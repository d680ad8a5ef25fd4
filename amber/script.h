/* A parsed AmberScript file: what the parser (parse*.c) produces and the executor (exec*.c) runs.
 * Everything is resolved by index (a pipeline names its buffers by their index in `buffers`);
 * every location is the line and column of the command in the file, for messages. */
#ifndef PREFLIGHT_AMBER_SCRIPT_H
#define PREFLIGHT_AMBER_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "types.h"

#define AMBER_NAME_MAX 128
#define AMBER_MAX_COLOR_ATTACHMENTS 8
#define AMBER_MAX_VERTEX_INPUTS 16
#define AMBER_MAX_STAGES 6
#define AMBER_MAX_SPECIALIZATIONS 64
#define AMBER_MAX_ARRAY_ELEMENTS 64
#define AMBER_MAX_EXPECT_VALUES 4096
#define AMBER_DEFAULT_FRAMEBUFFER 250

/* Implementation limits (docs/amber.md): past them a file is `skipped`, never allocated. */
#define AMBER_MAX_FILE_BYTES (64u << 20)
#define AMBER_MAX_BUFFER_BYTES (256ull << 20)
#define AMBER_MAX_TOTAL_BYTES (1024ull << 20)
#define AMBER_MAX_IMAGE_SIDE 16384u
#define AMBER_MAX_OBJECTS 4096 /* shaders, buffers, samplers, pipelines, structs each */
#define AMBER_MAX_COMMANDS 1000000

struct amber_location {
    uint32_t line, column;
};

enum amber_stage {
    AMBER_STAGE_VERTEX,
    AMBER_STAGE_TESSELLATION_CONTROL,
    AMBER_STAGE_TESSELLATION_EVALUATION,
    AMBER_STAGE_GEOMETRY,
    AMBER_STAGE_FRAGMENT,
    AMBER_STAGE_COMPUTE,
    AMBER_STAGE_MULTI, /* SPIR-V with several entry points; ATTACH ... TYPE says which */
    /* ray tracing: in SHADER_GROUPs of a ray_tracing pipeline, never ATTACHed */
    AMBER_STAGE_RAY_GENERATION,
    AMBER_STAGE_ANY_HIT,
    AMBER_STAGE_CLOSEST_HIT,
    AMBER_STAGE_MISS,
    AMBER_STAGE_INTERSECTION,
    AMBER_STAGE_CALLABLE,
};

enum amber_shader_format {
    AMBER_SHADER_GLSL,
    AMBER_SHADER_SPIRV_ASM,
    AMBER_SHADER_SPIRV_HEX,
    AMBER_SHADER_SPIRV_BIN,
    AMBER_SHADER_PASSTHROUGH,
    AMBER_SHADER_NOT_SUPPORTED, /* HLSL, OPENCL-C: kept so the file parses on; the file is skipped */
};

struct amber_shader {
    char name[AMBER_NAME_MAX];
    struct amber_location where;
    enum amber_stage stage;
    enum amber_shader_format format;
    char target_env[32]; /* TARGET_ENV, "" for the default (spv1.0, as Amber) */
    char *source;        /* text, or the bytes of SPIRV-BIN */
    size_t source_length;
    uint32_t source_line; /* the file line the source starts on (compiler messages) */
};

enum amber_init {
    AMBER_INIT_NONE,   /* zeros */
    AMBER_INIT_BYTES,  /* DATA, FILE: `bytes` */
    AMBER_INIT_FILL,   /* FILL value */
    AMBER_INIT_SERIES, /* SERIES_FROM start INC_BY step */
};

enum amber_dimension {
    AMBER_DIM_NONE, /* a buffer */
    AMBER_DIM_1D,
    AMBER_DIM_2D,
    AMBER_DIM_3D,
};

struct amber_buffer {
    char name[AMBER_NAME_MAX];
    struct amber_location where;
    struct amber_type type;
    struct amber_layout layout;
    bool std140;
    enum amber_init init;
    uint8_t *bytes; /* AMBER_INIT_BYTES, element_count * stride */
    struct amber_number fill, series_start, series_step;
    uint64_t element_count;
    bool sized_by_framebuffer; /* BUFFER FORMAT without data: sized by the attachment's framebuffer */
    enum amber_dimension dimension;
    uint32_t width, height, depth;
    uint32_t mip_levels, samples;
};

struct amber_sampler {
    char name[AMBER_NAME_MAX];
    struct amber_location where;
    uint32_t mag_filter, min_filter;          /* VkFilter */
    uint32_t address_u, address_v, address_w; /* VkSamplerAddressMode */
    uint32_t border_color;                    /* VkBorderColor */
    float min_lod, max_lod;
    bool unnormalized;
    bool compare;
    uint32_t compare_op; /* VkCompareOp */
};

struct amber_specialization {
    uint32_t id;
    uint32_t bits; /* the 32-bit value */
};

struct amber_attached_shader {
    uint32_t shader;
    enum amber_stage stage; /* the shader's, or TYPE for a multi shader */
    char entry[AMBER_NAME_MAX];
    struct amber_specialization specializations[AMBER_MAX_SPECIALIZATIONS];
    uint32_t specialization_count;
    /* SUBGROUP */
    bool fully_populated, varying_size;
    uint32_t required_size; /* 0: none */
    bool required_min, required_max;
    char *passes; /* SHADER_OPTIMIZATION: spirv-opt flags, one a line; NULL: none (owned) */
};

enum amber_bind_kind {
    AMBER_BIND_UNIFORM,
    AMBER_BIND_STORAGE,
    AMBER_BIND_UNIFORM_DYNAMIC,
    AMBER_BIND_STORAGE_DYNAMIC,
    AMBER_BIND_UNIFORM_TEXEL,
    AMBER_BIND_STORAGE_TEXEL,
    AMBER_BIND_STORAGE_IMAGE,
    AMBER_BIND_SAMPLED_IMAGE,
    AMBER_BIND_COMBINED_IMAGE_SAMPLER,
    AMBER_BIND_SAMPLER,
    AMBER_BIND_ACCELERATION_STRUCTURE, /* objects[0]: a top-level acceleration structure */
};

/* One descriptor binding: a buffer (or sampler) per array element. */
struct amber_binding {
    struct amber_location where;
    enum amber_bind_kind kind;
    uint32_t set, binding;
    uint32_t count;
    uint32_t objects[AMBER_MAX_ARRAY_ELEMENTS]; /* buffer indices; sampler indices for AMBER_BIND_SAMPLER */
    uint32_t sampler;                           /* COMBINED_IMAGE_SAMPLER */
    uint64_t dynamic_offsets[AMBER_MAX_ARRAY_ELEMENTS];
    uint64_t descriptor_offsets[AMBER_MAX_ARRAY_ELEMENTS];
    uint64_t descriptor_ranges[AMBER_MAX_ARRAY_ELEMENTS]; /* UINT64_MAX: the whole buffer */
    uint32_t base_mip_level;
};

struct amber_attachment {
    uint32_t buffer;
    uint32_t location;
    uint32_t base_mip_level;
};

struct amber_vertex_input {
    uint32_t buffer;
    uint32_t location;
    bool per_instance;
    VkFormat format; /* 0: the buffer's */
    uint32_t offset;
    uint32_t stride; /* 0: the format's */
    uint32_t size;   /* bytes of one attribute (the format's): the last vertex needs only these */
};

struct amber_depth_state {
    bool test, write, clamp, bounds;
    uint32_t compare_op; /* VkCompareOp */
    float min_bounds, max_bounds;
    bool bias;
    float bias_constant, bias_clamp, bias_slope;
};

struct amber_stencil_face {
    uint32_t fail_op, pass_op, depth_fail_op, compare_op; /* VkStencilOp, VkCompareOp */
    uint32_t compare_mask, write_mask, reference;
};

/* What only VkScript's pipeline commands set (AmberScript draws with these defaults). */
struct amber_raster_state {
    uint32_t cull_mode, front_face; /* VkCullModeFlags, VkFrontFace */
    float line_width;
    uint32_t color_write_mask; /* VkColorComponentFlags */
    bool primitive_restart, rasterizer_discard, logic_op_enable;
    uint32_t logic_op; /* VkLogicOp */
};

struct amber_blend_state {
    bool enable;
    uint32_t src_color, dst_color, color_op, src_alpha, dst_alpha, alpha_op; /* VkBlendFactor, VkBlendOp */
};

enum amber_pipeline_type {
    AMBER_PIPELINE_COMPUTE,
    AMBER_PIPELINE_GRAPHICS,
    AMBER_PIPELINE_RAY_TRACING,
};

#define AMBER_NO_SHADER UINT32_MAX

/* SHADER_GROUP: a general group (ray_generation, miss or callable) or a hit group. */
struct amber_shader_group {
    char name[AMBER_NAME_MAX];
    uint32_t general, closest_hit, any_hit, intersection; /* shader indices, AMBER_NO_SHADER when absent */
};

/* A SHADER_BINDING_TABLE record: a group of this pipeline or of a library it uses. */
struct amber_sbt_record {
    uint32_t pipeline; /* the pipeline that declares the group */
    uint32_t group;    /* in that pipeline's `groups` */
};

struct amber_sbt {
    char name[AMBER_NAME_MAX];
    struct amber_location where;
    struct amber_sbt_record *records;
    uint32_t record_count;
};

#define AMBER_MAX_LIBRARIES 16

struct amber_pipeline {
    char name[AMBER_NAME_MAX];
    struct amber_location where;
    enum amber_pipeline_type type;
    struct amber_attached_shader shaders[AMBER_MAX_STAGES];
    uint32_t shader_count;
    struct amber_binding *bindings;
    uint32_t binding_count;
    int64_t push_constants; /* buffer index, -1: none */
    struct amber_attachment colors[AMBER_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count;
    int64_t depth_stencil; /* buffer index, -1: none */
    uint32_t resolves[AMBER_MAX_COLOR_ATTACHMENTS];
    uint32_t resolve_count;
    struct amber_vertex_input vertex_inputs[AMBER_MAX_VERTEX_INPUTS];
    uint32_t vertex_input_count;
    int64_t index_buffer; /* -1: none */
    uint32_t width, height;
    bool framebuffer_set; /* FRAMEBUFFER_SIZE given; else an IMAGE attachment's size, or 250x250 */
    bool viewport_set;
    float viewport[6];     /* x, y, width, height, min depth, max depth */
    uint32_t polygon_mode; /* VkPolygonMode */
    uint32_t patch_control_points;
    struct amber_depth_state depth;
    bool stencil_test;
    struct amber_stencil_face stencil_front, stencil_back;
    struct amber_blend_state blend;
    struct amber_raster_state raster;
    /* ray tracing */
    struct amber_shader_group *groups;
    uint32_t group_count;
    struct amber_sbt *sbts;
    uint32_t sbt_count;
    bool library;                            /* FLAGS LIBRARY */
    uint32_t libraries[AMBER_MAX_LIBRARIES]; /* USE_LIBRARY: pipeline indices */
    uint32_t library_count;
    uint32_t max_ray_payload_size, max_ray_hit_attribute_size, max_ray_recursion_depth;
};

/* ACCELERATION_STRUCTURE BOTTOM_LEVEL: triangles (9 floats each) or boxes (6 floats each). */
struct amber_geometry {
    uint32_t flags; /* VkGeometryFlagsKHR */
    float *data;
    uint32_t primitive_count;
};

struct amber_blas {
    char name[AMBER_NAME_MAX];
    struct amber_location where;
    bool aabbs;
    struct amber_geometry *geometries;
    uint32_t geometry_count;
};

struct amber_instance {
    uint32_t blas;
    uint32_t custom_index, sbt_offset, mask, flags;
    float transform[12]; /* 3x4, row-major */
};

struct amber_tlas {
    char name[AMBER_NAME_MAX];
    struct amber_location where;
    struct amber_instance *instances;
    uint32_t instance_count;
};

enum amber_command_kind {
    AMBER_CMD_RUN_COMPUTE,
    AMBER_CMD_DRAW_RECT,
    AMBER_CMD_DRAW_GRID,
    AMBER_CMD_DRAW_ARRAY,
    AMBER_CMD_CLEAR,
    AMBER_CMD_CLEAR_COLOR,
    AMBER_CMD_CLEAR_DEPTH,
    AMBER_CMD_CLEAR_STENCIL,
    AMBER_CMD_COPY,
    AMBER_CMD_EXPECT_VALUES, /* EXPECT buf IDX x [TOLERANCE ...] EQ|NE|LT|LE|GT|GE values */
    AMBER_CMD_EXPECT_PIXELS, /* EXPECT buf IDX x y SIZE w h EQ_RGB|EQ_RGBA ... */
    AMBER_CMD_EXPECT_BUFFER, /* EXPECT a EQ_BUFFER b */
    AMBER_CMD_EXPECT_RMSE,   /* EXPECT a RMSE_BUFFER b TOLERANCE t */
    AMBER_CMD_EXPECT_EMD,    /* EXPECT a EQ_HISTOGRAM_EMD_BUFFER b TOLERANCE t */
    AMBER_CMD_REPEAT,        /* the next `body` commands, `count` times */
    AMBER_CMD_TRACE_RAYS,    /* RUN pipeline RAYGEN sbt [MISS sbt] [HIT sbt] [CALL sbt] x y z */
    AMBER_CMD_WRITE_BUFFER,  /* VkScript's ssbo subdata, uniform ubo, uniform: bytes written by the host, in order */
};

enum amber_comparator {
    AMBER_CMP_EQ,
    AMBER_CMP_NE,
    AMBER_CMP_LT,
    AMBER_CMP_LE,
    AMBER_CMP_GT,
    AMBER_CMP_GE,
};

struct amber_tolerance {
    double value;
    bool percent;
};

enum amber_topology {
    AMBER_TOPOLOGY_POINT_LIST,
    AMBER_TOPOLOGY_LINE_LIST,
    AMBER_TOPOLOGY_LINE_STRIP,
    AMBER_TOPOLOGY_TRIANGLE_LIST,
    AMBER_TOPOLOGY_TRIANGLE_STRIP,
    AMBER_TOPOLOGY_TRIANGLE_FAN,
    AMBER_TOPOLOGY_LINE_LIST_WITH_ADJACENCY,
    AMBER_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
    AMBER_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY,
    AMBER_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY,
    AMBER_TOPOLOGY_PATCH_LIST,
}; /* the same order as VkPrimitiveTopology */

struct amber_command {
    enum amber_command_kind kind;
    struct amber_location where;
    uint32_t pipeline;
    bool timed; /* TIMED_EXECUTION */
    union {
        struct {
            uint32_t x, y, z;
        } run;
        struct {
            float x, y, width, height;
            uint32_t columns, rows; /* DRAW_GRID */
            bool ndc;               /* VkScript's draw rect without ortho: normalized device coordinates */
        } rect;
        struct {
            enum amber_topology topology;
            bool indexed;
            uint32_t first, count; /* count UINT32_MAX: to the end of the data */
            uint32_t first_instance, instance_count;
            bool first_is_vertex_offset; /* VkScript's indexed draw: indices from 0, `first` added to each */
        } draw;
        struct {
            float rgba[4]; /* 0..255 as written */
        } clear_color;
        float clear_depth;
        uint32_t clear_stencil;
        struct {
            uint32_t from, to;
        } copy;
        struct {
            uint32_t buffer;
            uint64_t offset; /* IDX: a byte offset into the buffer */
            enum amber_comparator comparator;
            struct amber_tolerance tolerances[4];
            uint32_t tolerance_count;
            struct amber_number *values; /* owned */
            uint32_t value_count;
        } values;
        struct {
            uint32_t buffer;
            uint32_t x, y, width, height;
            bool rgba;
            float expected[4]; /* 0..255 as written */
            struct amber_tolerance tolerances[4];
            uint32_t tolerance_count;
        } pixels;
        struct {
            uint32_t actual, reference;
            double tolerance;
        } compare;
        struct {
            uint32_t count;
            uint32_t body; /* the commands after this one that repeat */
        } repeat;
        struct {
            uint32_t buffer;
            uint64_t offset;
            uint8_t *bytes; /* owned */
            uint32_t length;
        } write;
        struct {
            uint32_t raygen, miss, hit, call; /* SBT indices in the pipeline, AMBER_NO_SHADER when absent */
            uint32_t x, y, z;
        } trace;
    };
};

/* What the device must offer: checked against the report's declared block (unsupported when not). */
struct amber_requirement {
    struct amber_location where;
    enum {
        AMBER_REQUIRE_FEATURE,
        AMBER_REQUIRE_EXTENSION,
        AMBER_REQUIRE_INSTANCE_EXTENSION,
        AMBER_REQUIRE_PROPERTY
    } kind;
    char name[AMBER_NAME_MAX]; /* as written */
};

struct amber_virtual_file {
    char path[AMBER_NAME_MAX * 2];
    char *text;
    size_t length;
};

struct amber_script {
    char *text; /* the file, owned: shader sources point into copies, not into it */
    struct amber_shader *shaders;
    uint32_t shader_count;
    struct amber_buffer *buffers;
    uint32_t buffer_count;
    struct amber_sampler *samplers;
    uint32_t sampler_count;
    struct amber_struct *structs;
    uint32_t struct_count;
    struct amber_pipeline *pipelines;
    uint32_t pipeline_count;
    struct amber_command *commands;
    uint32_t command_count;
    struct amber_requirement *requirements;
    uint32_t requirement_count;
    struct amber_virtual_file *virtual_files;
    uint32_t virtual_file_count;
    struct amber_blas *blases;
    uint32_t blas_count;
    struct amber_tlas *tlases;
    uint32_t tlas_count;
    uint32_t expect_count;
    bool vkscript;        /* read as VkScript (the file does not start with #!amber) */
    uint64_t total_bytes; /* every buffer's initial data, for the limit */
};

#endif
