/* The commands in file order: RUN and CLEAR recorded on the device, CLEAR_* as state, COPY and
 * EXPECT on the host after the device's work is done, REPEAT as a loop. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifacts.h"
#include "exec.h"
#include "expect.h"

/* --- what a command touches ------------------------------------------------------------------ */

static bool writable(enum amber_bind_kind kind)
{
    return kind == AMBER_BIND_STORAGE || kind == AMBER_BIND_STORAGE_DYNAMIC || kind == AMBER_BIND_STORAGE_TEXEL ||
           kind == AMBER_BIND_STORAGE_IMAGE;
}

/* Before recording: a push-constant buffer the open batch may still write is read only after it. */
static bool before_recording(struct exec *e, const struct amber_pipeline *pl)
{
    if (pl->push_constants >= 0 && e->buffers[pl->push_constants].written_in_batch)
        return exec_flush(e);
    return true;
}

/* The images the pipeline reads get the host's newer data; a barrier orders the command after
 * what came before it. */
static void prepare_inputs(struct exec *e, const struct amber_pipeline *pl, bool draws)
{
    for (uint32_t i = 0; i < pl->binding_count; ++i)
        for (uint32_t k = 0; pl->bindings[i].kind != AMBER_BIND_SAMPLER &&
                             pl->bindings[i].kind != AMBER_BIND_ACCELERATION_STRUCTURE && k < pl->bindings[i].count;
             ++k)
            exec_upload_image(e, pl->bindings[i].objects[k]);
    if (draws) {
        for (uint32_t i = 0; i < pl->color_count; ++i)
            exec_upload_image(e, pl->colors[i].buffer);
        for (uint32_t i = 0; i < pl->resolve_count; ++i)
            exec_upload_image(e, pl->resolves[i]);
        if (pl->depth_stencil >= 0)
            exec_upload_image(e, (uint32_t)pl->depth_stencil);
    }
    exec_barrier(e);
}

static void mark_written(struct exec *e, uint32_t buffer)
{
    struct exec_buffer *x = &e->buffers[buffer];
    x->written_in_batch = true;
    if (x->image != NULL)
        x->image_newer = true;
}

static void mark_outputs(struct exec *e, const struct amber_pipeline *pl, bool draws)
{
    for (uint32_t i = 0; i < pl->binding_count; ++i)
        for (uint32_t k = 0; writable(pl->bindings[i].kind) && k < pl->bindings[i].count; ++k)
            mark_written(e, pl->bindings[i].objects[k]);
    if (draws) {
        for (uint32_t i = 0; i < pl->color_count; ++i)
            mark_written(e, pl->colors[i].buffer);
        for (uint32_t i = 0; i < pl->resolve_count; ++i)
            mark_written(e, pl->resolves[i]);
        if (pl->depth_stencil >= 0)
            mark_written(e, (uint32_t)pl->depth_stencil);
    }
}

static void timing_begin(struct exec *e, const struct amber_command *c)
{
    if (!c->timed || e->timing_pool == VK_NULL_HANDLE || e->timing_queries + 2 > 2 * EXEC_MAX_TIMINGS)
        return;
    e->timing_lines[e->timing_queries / 2] = c->where.line;
    vkCmdWriteTimestamp(e->gpu->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, e->timing_pool, e->timing_queries);
}

static void timing_end(struct exec *e, const struct amber_command *c)
{
    if (!c->timed || e->timing_pool == VK_NULL_HANDLE || e->timing_queries + 2 > 2 * EXEC_MAX_TIMINGS)
        return;
    vkCmdWriteTimestamp(e->gpu->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, e->timing_pool, e->timing_queries + 1);
    e->timing_queries += 2;
}

/* After a recorded GPU command: a long batch is submitted. */
static bool recorded(struct exec *e)
{
    ++e->recorded;
    return e->recorded < EXEC_BATCH_COMMANDS || exec_flush(e);
}

/* --- RUN ------------------------------------------------------------------------------------- */

static bool run_compute(struct exec *e, const struct amber_command *c)
{
    const struct amber_pipeline *pl = &e->script->pipelines[c->pipeline];
    const uint32_t *max = e->gpu->properties.limits.maxComputeWorkGroupCount;
    if (c->run.x > max[0] || c->run.y > max[1] || c->run.z > max[2])
        return exec_stop(e, VERDICT_UNSUPPORTED,
                         "line %u: RUN %s %u %u %u: the device dispatches at most %u %u %u groups", c->where.line,
                         pl->name, c->run.x, c->run.y, c->run.z, max[0], max[1], max[2]);
    if (!before_recording(e, pl) || !exec_record_begin(e))
        return false;
    prepare_inputs(e, pl, false);
    timing_begin(e, c);
    vkCmdBindPipeline(e->gpu->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, e->pipelines[c->pipeline].compute);
    exec_bind_pipeline(e, c->pipeline, VK_PIPELINE_BIND_POINT_COMPUTE);
    vkCmdDispatch(e->gpu->cmd, c->run.x, c->run.y, c->run.z);
    timing_end(e, c);
    mark_outputs(e, pl, false);
    return recorded(e);
}

/* RUN pipeline RAYGEN ... x y z: the ray generation table's first record, the others whole. */
static bool run_trace(struct exec *e, const struct amber_command *c)
{
    const struct amber_pipeline *pl = &e->script->pipelines[c->pipeline];
    const struct exec_pipeline *x = &e->pipelines[c->pipeline];
    const VkPhysicalDeviceLimits *limits = &e->gpu->properties.limits;
    uint64_t rays = (uint64_t)c->trace.x * c->trace.y * c->trace.z;
    if ((uint64_t)c->trace.x > (uint64_t)limits->maxComputeWorkGroupCount[0] * limits->maxComputeWorkGroupSize[0] ||
        (uint64_t)c->trace.y > (uint64_t)limits->maxComputeWorkGroupCount[1] * limits->maxComputeWorkGroupSize[1] ||
        (uint64_t)c->trace.z > (uint64_t)limits->maxComputeWorkGroupCount[2] * limits->maxComputeWorkGroupSize[2] ||
        rays > e->ray_tracing.maxRayDispatchInvocationCount)
        return exec_stop(
            e, VERDICT_UNSUPPORTED,
            "line %u: RUN %s %u %u %u: beyond the rays this device traces at once (maxRayDispatchInvocationCount "
            "%u)",
            c->where.line, pl->name, c->trace.x, c->trace.y, c->trace.z, e->ray_tracing.maxRayDispatchInvocationCount);
    VkStridedDeviceAddressRegionKHR regions[4] = {{0}};
    const uint32_t tables[4] = {c->trace.raygen, c->trace.miss, c->trace.hit, c->trace.call};
    for (int i = 0; i < 4; ++i)
        if (tables[i] != AMBER_NO_SHADER)
            regions[i] = x->sbt_regions[tables[i]];
    regions[0].size = regions[0].stride;
    if (!before_recording(e, pl) || !exec_record_begin(e))
        return false;
    prepare_inputs(e, pl, false);
    timing_begin(e, c);
    vkCmdBindPipeline(e->gpu->cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, x->ray_tracing);
    exec_bind_pipeline(e, c->pipeline, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR);
    vkCmdTraceRaysKHR(e->gpu->cmd, &regions[0], &regions[1], &regions[2], &regions[3], c->trace.x, c->trace.y,
                      c->trace.z);
    timing_end(e, c);
    mark_outputs(e, pl, false);
    return recorded(e);
}

/* DRAW_RECT and DRAW_GRID's vertices in normalized device coordinates, made once per command. */
static struct gpu_buffer *rect_vertices(struct exec *e, const struct amber_command *c, uint32_t *count)
{
    const struct exec_pipeline *x = &e->pipelines[c->pipeline];
    uint32_t index = (uint32_t)(c - e->script->commands);
    float fx = c->rect.x / (float)x->width * 2.0f - 1.0f, fy = c->rect.y / (float)x->height * 2.0f - 1.0f;
    float fw = c->rect.width / (float)x->width * 2.0f, fh = c->rect.height / (float)x->height * 2.0f;
    if (c->rect.ndc) { /* VkScript's draw rect without ortho: the coordinates as written */
        fx = c->rect.x;
        fy = c->rect.y;
        fw = c->rect.width;
        fh = c->rect.height;
    }
    bool grid = c->kind == AMBER_CMD_DRAW_GRID;
    *count = grid ? c->rect.columns * c->rect.rows * 6 : 4;
    if (e->rect_vertices[index] != NULL)
        return e->rect_vertices[index];
    struct gpu_buffer *b =
        gpu_buffer_create_with_usage(e->gpu, (VkDeviceSize)*count * 8, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, 0);
    if (b == NULL)
        return NULL;
    float *v = b->mapped;
    if (!grid) { /* a strip: bottom left, top left, bottom right, top right */
        const float corners[8] = {fx, fy + fh, fx, fy, fx + fw, fy + fh, fx + fw, fy};
        memcpy(v, corners, sizeof(corners));
    } else { /* two triangles a cell */
        float cw = fw / (float)c->rect.columns, ch = fh / (float)c->rect.rows;
        for (uint32_t row = 0, at = 0; row < c->rect.rows; ++row)
            for (uint32_t column = 0; column < c->rect.columns; ++column, at += 12) {
                float x0 = fx + cw * (float)column, y0 = fy + ch * (float)row;
                float x1 = fx + cw * (float)(column + 1), y1 = fy + ch * (float)(row + 1);
                const float cell[12] = {x1, y1, x0, y1, x0, y0, x1, y1, x0, y0, x1, y0};
                memcpy(v + at, cell, sizeof(cell));
            }
    }
    e->rect_vertices[index] = b;
    return b;
}

static void begin_pass(struct exec *e, uint32_t pipeline)
{
    const struct exec_pipeline *x = &e->pipelines[pipeline];
    VkRenderPassBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = x->render_pass,
        .framebuffer = x->framebuffer,
        .renderArea = {{0, 0}, {x->width, x->height}},
    };
    vkCmdBeginRenderPass(e->gpu->cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
}

/* How many vertices (or instances) an input's data holds from its OFFSET: the last one needs only
 * its attribute's bytes, not a whole STRIDE. */
static uint64_t vertices_in(const struct exec *e, const struct amber_vertex_input *v)
{
    uint64_t bytes = e->buffers[v->buffer].bytes, first = (uint64_t)v->offset + v->size;
    return bytes >= first ? (bytes - first) / v->stride + 1 : 0;
}

/* DRAW_ARRAY's count without COUNT (what the data holds from START_IDX), and a check that the draw
 * reads no vertex, instance or index past the end of its data (that read is undefined in Vulkan). */
static bool draw_range(struct exec *e, const struct amber_command *c, uint32_t *count)
{
    const struct amber_pipeline *pl = &e->script->pipelines[c->pipeline];
    uint64_t available = UINT64_MAX;
    if (c->draw.indexed) {
        available = e->buffers[pl->index_buffer].elements;
    } else {
        for (uint32_t i = 0; i < pl->vertex_input_count; ++i)
            if (!pl->vertex_inputs[i].per_instance && vertices_in(e, &pl->vertex_inputs[i]) < available)
                available = vertices_in(e, &pl->vertex_inputs[i]);
    }
    const char *what = c->draw.indexed ? "indices" : "vertices";
    if (c->draw.first_is_vertex_offset) {
        if (*count > available)
            return exec_stop(e, VERDICT_FAIL, "line %u: the draw reads %u indices; the data holds %llu", c->where.line,
                             *count, (unsigned long long)available);
    } else if (*count == UINT32_MAX) {
        if (c->draw.first > available)
            return exec_stop(e, VERDICT_FAIL, "line %u: START_IDX %u is past the %llu %s", c->where.line, c->draw.first,
                             (unsigned long long)available, what);
        *count = (uint32_t)(available - c->draw.first);
    } else if (available != UINT64_MAX && (uint64_t)c->draw.first + *count > available) {
        return exec_stop(e, VERDICT_FAIL, "line %u: DRAW_ARRAY reads %s %u to %llu; the data holds %llu", c->where.line,
                         what, c->draw.first, (unsigned long long)c->draw.first + *count - 1,
                         (unsigned long long)available);
    }
    for (uint32_t i = 0; i < pl->vertex_input_count; ++i) {
        const struct amber_vertex_input *v = &pl->vertex_inputs[i];
        uint64_t last = (uint64_t)c->draw.first_instance + c->draw.instance_count;
        if (v->per_instance && last > vertices_in(e, v))
            return exec_stop(e, VERDICT_FAIL, "line %u: DRAW_ARRAY draws instances up to %llu; %s holds %llu",
                             c->where.line, (unsigned long long)last - 1, e->script->buffers[v->buffer].name,
                             (unsigned long long)vertices_in(e, v));
    }
    return true;
}

static bool run_draw(struct exec *e, const struct amber_command *c)
{
    const struct amber_pipeline *pl = &e->script->pipelines[c->pipeline];
    bool rect = c->kind != AMBER_CMD_DRAW_ARRAY;
    VkPrimitiveTopology topology = c->kind == AMBER_CMD_DRAW_RECT   ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
                                   : c->kind == AMBER_CMD_DRAW_GRID ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST
                                                                    : (VkPrimitiveTopology)c->draw.topology;
    uint32_t count = c->draw.count;
    struct gpu_buffer *vertices = NULL;
    struct gpu_buffer *zeros = NULL; /* DRAW_RECT: what the other VERTEX_DATA locations read */
    if (rect) {
        vertices = rect_vertices(e, c, &count);
        bool other_inputs = false;
        for (uint32_t i = 0; i < pl->vertex_input_count; ++i)
            other_inputs = other_inputs || pl->vertex_inputs[i].location != 0;
        if (other_inputs && e->zero_vertex == NULL)
            e->zero_vertex = gpu_buffer_create_with_usage(e->gpu, 64, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, 0);
        zeros = other_inputs ? e->zero_vertex : NULL;
        if (vertices == NULL || (other_inputs && zeros == NULL))
            return exec_no_object(e, "buffers");
    } else if (!draw_range(e, c, &count)) {
        return false;
    }
    VkPipeline pipeline = exec_graphics_variant(e, c->pipeline, rect, topology);
    if (pipeline == VK_NULL_HANDLE || !before_recording(e, pl) || !exec_record_begin(e))
        return false;
    prepare_inputs(e, pl, true);
    timing_begin(e, c);
    begin_pass(e, c->pipeline);
    vkCmdBindPipeline(e->gpu->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    exec_bind_pipeline(e, c->pipeline, VK_PIPELINE_BIND_POINT_GRAPHICS);
    if (rect) {
        VkDeviceSize zero = 0;
        vkCmdBindVertexBuffers(e->gpu->cmd, 0, 1, &vertices->buffer, &zero);
        if (zeros != NULL)
            vkCmdBindVertexBuffers(e->gpu->cmd, 1, 1, &zeros->buffer, &zero);
        vkCmdDraw(e->gpu->cmd, count, 1, 0, 0);
    } else {
        for (uint32_t i = 0; i < pl->vertex_input_count; ++i) {
            VkDeviceSize offset = pl->vertex_inputs[i].offset;
            vkCmdBindVertexBuffers(e->gpu->cmd, i, 1, &e->buffers[pl->vertex_inputs[i].buffer].data->buffer, &offset);
        }
        if (c->draw.indexed) {
            const struct amber_buffer *indices = &e->script->buffers[pl->index_buffer];
            uint8_t bits = indices->layout.segments[0].bits;
            vkCmdBindIndexBuffer(e->gpu->cmd, e->buffers[pl->index_buffer].data->buffer, 0,
                                 bits == 8    ? VK_INDEX_TYPE_UINT8_EXT
                                 : bits == 16 ? VK_INDEX_TYPE_UINT16
                                              : VK_INDEX_TYPE_UINT32);
            if (c->draw.first_is_vertex_offset)
                vkCmdDrawIndexed(e->gpu->cmd, count, c->draw.instance_count, 0, (int32_t)c->draw.first,
                                 c->draw.first_instance);
            else
                vkCmdDrawIndexed(e->gpu->cmd, count, c->draw.instance_count, c->draw.first, 0, c->draw.first_instance);
        } else {
            vkCmdDraw(e->gpu->cmd, count, c->draw.instance_count, c->draw.first, c->draw.first_instance);
        }
    }
    vkCmdEndRenderPass(e->gpu->cmd);
    timing_end(e, c);
    mark_outputs(e, pl, true);
    return recorded(e);
}

/* --- CLEAR ----------------------------------------------------------------------------------- */

static VkClearValue clear_value_for(const struct exec_pipeline *x, const struct amber_buffer *b)
{
    VkClearValue v = {0};
    uint8_t mode = b->layout.count ? b->layout.segments[0].mode : AMBER_MODE_UNORM;
    for (int i = 0; i < 4; ++i) {
        if (mode == AMBER_MODE_UINT)
            v.color.uint32[i] = (uint32_t)x->clear_color[i];
        else if (mode == AMBER_MODE_SINT)
            v.color.int32[i] = (int32_t)x->clear_color[i];
        else
            v.color.float32[i] = x->clear_color[i] / 255.0f;
    }
    return v;
}

static bool run_clear(struct exec *e, const struct amber_command *c)
{
    const struct amber_pipeline *pl = &e->script->pipelines[c->pipeline];
    const struct exec_pipeline *x = &e->pipelines[c->pipeline];
    if (!exec_record_begin(e))
        return false;
    prepare_inputs(e, pl, true);
    begin_pass(e, c->pipeline);
    VkClearAttachment clears[AMBER_MAX_COLOR_ATTACHMENTS + 1];
    uint32_t n = 0;
    for (uint32_t i = 0; i < pl->color_count; ++i)
        clears[n++] = (VkClearAttachment){VK_IMAGE_ASPECT_COLOR_BIT, pl->colors[i].location,
                                          clear_value_for(x, &e->script->buffers[pl->colors[i].buffer])};
    if (pl->depth_stencil >= 0) {
        VkFormat f = e->script->buffers[pl->depth_stencil].layout.format;
        VkImageAspectFlags aspect = (amber_format_has_depth(f) ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                    (amber_format_has_stencil(f) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
        VkClearValue value = {.depthStencil = {x->clear_depth, x->clear_stencil}};
        clears[n++] = (VkClearAttachment){aspect, 0, value};
    }
    VkClearRect rect = {{{0, 0}, {x->width, x->height}}, 0, 1};
    vkCmdClearAttachments(e->gpu->cmd, n, clears, 1, &rect);
    vkCmdEndRenderPass(e->gpu->cmd);
    mark_outputs(e, pl, true);
    return recorded(e);
}

/* --- host side: COPY and EXPECT -------------------------------------------------------------- */

static bool run_copy(struct exec *e, const struct amber_command *c)
{
    struct exec_buffer *from = &e->buffers[c->copy.from], *to = &e->buffers[c->copy.to];
    /* the host reads the source and writes the destination: every recorded command is done first */
    if (!exec_sync_to_host(e, c->copy.from))
        return false;
    if (from->bytes != to->bytes)
        return exec_stop(e, VERDICT_FAIL, "line %u: COPY %s TO %s: %llu bytes into %llu", c->where.line,
                         e->script->buffers[c->copy.from].name, e->script->buffers[c->copy.to].name,
                         (unsigned long long)from->bytes, (unsigned long long)to->bytes);
    memcpy(to->data->mapped, from->data->mapped, (size_t)from->bytes);
    to->image_newer = false;
    to->data_newer = to->image != NULL;
    return true;
}

/* VkScript's ssbo subdata, uniform ubo and uniform: the host writes after every recorded command
 * is done (a command recorded before may still read the old bytes), as Amber runs them in order. */
static bool run_write(struct exec *e, const struct amber_command *c)
{
    struct exec_buffer *x = &e->buffers[c->write.buffer];
    if (!exec_sync_to_host(e, c->write.buffer))
        return false;
    if (c->write.offset > x->bytes || c->write.length > x->bytes - c->write.offset)
        return exec_stop(e, VERDICT_FAIL, "line %u: %u bytes at %llu do not fit the %llu bytes of %s", c->where.line,
                         c->write.length, (unsigned long long)c->write.offset, (unsigned long long)x->bytes,
                         e->script->buffers[c->write.buffer].name);
    memcpy((uint8_t *)x->data->mapped + c->write.offset, c->write.bytes, c->write.length);
    x->image_newer = false;
    x->data_newer = x->image != NULL;
    return true;
}

/* The probed image as RGB for a PNG: normalized and float channels scaled from [0,1], integers
 * clamped to 0..255, a depth as grey. */
static void write_failed_image(struct exec *e, const struct amber_command *c, uint32_t buffer, cJSON *failure)
{
    const struct amber_buffer *b = &e->script->buffers[buffer];
    const struct exec_buffer *x = &e->buffers[buffer];
    size_t texels = (size_t)x->width * x->height;
    uint8_t *rgb = calloc(texels ? texels * 3 : 3, 1);
    if (rgb == NULL)
        return;
    const uint8_t *data = x->data->mapped;
    for (size_t i = 0; i < texels && i < x->elements; ++i) {
        for (uint32_t k = 0; k < b->layout.count; ++k) {
            const struct amber_segment *s = &b->layout.segments[k];
            int channel = s->channel == AMBER_CHANNEL_R   ? 0
                          : s->channel == AMBER_CHANNEL_G ? 1
                          : s->channel == AMBER_CHANNEL_B ? 2
                          : s->channel == AMBER_CHANNEL_D ? 3
                                                          : -1;
            if (channel < 0)
                continue;
            double v = amber_decode_normalized(s, data + i * b->layout.stride);
            bool integer = s->mode == AMBER_MODE_UINT || s->mode == AMBER_MODE_SINT;
            double scaled = integer ? v : v * 255.0;
            uint8_t byte = (uint8_t)(scaled < 0 ? 0 : scaled > 255 ? 255 : lround(scaled));
            if (channel == 3)
                memset(rgb + i * 3, byte, 3);
            else
                rgb[i * 3 + channel] = byte;
        }
    }
    char name[AMBER_NAME_MAX + 32], what[AMBER_NAME_MAX + 96];
    snprintf(name, sizeof(name), "line%u-%s", c->where.line, b->name);
    snprintf(what, sizeof(what), "%s as read back for the failed EXPECT on line %u (%s)", b->name, c->where.line,
             amber_format_name(b->layout.format));
    artifacts_write_rgb(failure, name, what, x->width, x->height, rgb);
    free(rgb);
}

static bool run_expect(struct exec *e, const struct amber_command *c)
{
    const struct amber_script *s = e->script;
    struct amber_expect_result r = {0};
    uint32_t buffer = c->kind == AMBER_CMD_EXPECT_VALUES   ? c->values.buffer
                      : c->kind == AMBER_CMD_EXPECT_PIXELS ? c->pixels.buffer
                                                           : c->compare.actual;
    if (!exec_sync_to_host(e, buffer))
        return false;
    const struct exec_buffer *x = &e->buffers[buffer];
    if (c->kind == AMBER_CMD_EXPECT_VALUES) {
        amber_expect_values(c, &s->buffers[buffer], x->data->mapped, x->bytes, &r);
    } else if (c->kind == AMBER_CMD_EXPECT_PIXELS) {
        amber_expect_pixels(c, &s->buffers[buffer], x->width, x->height, x->data->mapped, &r);
    } else {
        if (!exec_sync_to_host(e, c->compare.reference))
            return false;
        const struct exec_buffer *y = &e->buffers[c->compare.reference];
        amber_expect_buffers(c, &s->buffers[buffer], x->data->mapped, x->elements, &s->buffers[c->compare.reference],
                             y->data->mapped, y->elements, &r);
    }
    ++e->expectations_run;
    if (r.passed) {
        cJSON_Delete(r.evidence);
        return true;
    }
    if (e->expectations_failed++ == 0)
        snprintf(e->first_failure, sizeof(e->first_failure), "line %u: %s", c->where.line, r.summary);
    if (cJSON_GetArraySize(e->failures) < 16) {
        cJSON_AddNumberToObject(r.evidence, "line", c->where.line);
        cJSON_AddStringToObject(r.evidence, "summary", r.summary);
        if (c->kind == AMBER_CMD_EXPECT_PIXELS && cJSON_GetArraySize(e->failures) < 4)
            write_failed_image(e, c, buffer, r.evidence);
        cJSON_AddItemToArray(e->failures, r.evidence);
    } else {
        cJSON_Delete(r.evidence);
    }
    return true;
}

/* --- the loop -------------------------------------------------------------------------------- */

bool exec_run_commands(struct exec *e, uint32_t first, uint32_t count)
{
    const struct amber_script *s = e->script;
    for (uint32_t i = first; i < first + count && !e->stopped; ++i) {
        const struct amber_command *c = &s->commands[i];
        struct exec_pipeline *x = s->pipeline_count ? &e->pipelines[c->pipeline] : NULL;
        bool ok = true;
        switch (c->kind) {
        case AMBER_CMD_RUN_COMPUTE:
            ok = run_compute(e, c);
            break;
        case AMBER_CMD_TRACE_RAYS:
            ok = run_trace(e, c);
            break;
        case AMBER_CMD_DRAW_RECT:
        case AMBER_CMD_DRAW_GRID:
        case AMBER_CMD_DRAW_ARRAY:
            ok = run_draw(e, c);
            break;
        case AMBER_CMD_CLEAR:
            ok = run_clear(e, c);
            break;
        case AMBER_CMD_CLEAR_COLOR:
            memcpy(x->clear_color, c->clear_color.rgba, sizeof(x->clear_color));
            break;
        case AMBER_CMD_CLEAR_DEPTH:
            x->clear_depth = c->clear_depth;
            break;
        case AMBER_CMD_CLEAR_STENCIL:
            x->clear_stencil = c->clear_stencil;
            break;
        case AMBER_CMD_COPY:
            ok = run_copy(e, c);
            break;
        case AMBER_CMD_EXPECT_VALUES:
        case AMBER_CMD_EXPECT_PIXELS:
        case AMBER_CMD_EXPECT_BUFFER:
        case AMBER_CMD_EXPECT_RMSE:
        case AMBER_CMD_EXPECT_EMD:
            ok = run_expect(e, c);
            break;
        case AMBER_CMD_WRITE_BUFFER:
            ok = run_write(e, c);
            break;
        case AMBER_CMD_REPEAT:
            for (uint32_t n = 0; n < c->repeat.count && ok && !e->stopped; ++n)
                ok = exec_run_commands(e, i + 1, c->repeat.body);
            i += c->repeat.body;
            break;
        }
        if (!ok || e->stopped)
            return false;
    }
    return !e->stopped;
}
