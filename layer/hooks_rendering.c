/* Graphics recording: render passes, framebuffers, dynamic rendering, vertex and index buffers,
 * and the draw calls, which run the binding and alias checks of the bound graphics pipeline. For
 * the hazard tracker, a render pass or dynamic rendering is its attachments' load operations at
 * the start and store/resolve operations at the end, with a render pass's external dependencies
 * and initial/final layout transitions.
 *
 * What a draw touches outside descriptors:
 *   - attachments of the current subpass (color, resolve and depth/stencil in a writable layout
 *     are written; input attachments and read-only depth/stencil are read), or of
 *     vkCmdBeginRendering (color and resolve written, depth/stencil written when the pipeline's
 *     depth writes are on);
 *   - vertex buffers, over exactly the vertices of a non-indexed draw (an indexed draw's vertex
 *     range depends on index values the layer does not read, so it is left out);
 *   - the index range of an indexed draw, and the indirect and count buffers. */
#include <stdlib.h>
#include <string.h>

#include "check_alias.h"
#include "check_binding.h"
#include "check_lifetime.h"
#include "layer_hooks.h"
#include "layer_state.h"

#define HANDLE(h) ((uint64_t)(h))

/* ---- render passes and framebuffers ---- */

static bool depth_layout_writable(VkImageLayout layout)
{
    switch (layout) {
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL: /* depth (the aspect shaders sample) read-only */
    case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL:
        return false;
    default:
        return true;
    }
}

static void subpass_add(struct subpass_attachments *s, uint32_t attachment, bool write, bool depth)
{
    if (attachment == VK_ATTACHMENT_UNUSED || s->count >= MAX_ATTACHMENTS)
        return;
    s->index[s->count] = attachment;
    s->write[s->count] = write;
    s->depth[s->count] = depth;
    s->count++;
}

static void store_render_pass(struct layer_device *ld, VkRenderPass handle, struct render_pass_state *r)
{
    if (r->subpasses == NULL && r->subpass_count > 0) {
        render_pass_state_free(r);
        return;
    }
    handle_map_put(&ld->render_passes, HANDLE(handle), r);
}

/* VkSubpassDescription and VkSubpassDescription2 name these members alike, so one body reads
 * both: color and resolve attachments are written, input attachments read, depth/stencil written
 * unless its layout is read-only. */
#define DESCRIBE_SUBPASSES(r, info)                                                                                    \
    for (uint32_t i = 0; (r)->subpasses && (info)->pSubpasses && i < (info)->subpassCount; ++i) {                      \
        const __typeof__((info)->pSubpasses[0]) *d = &(info)->pSubpasses[i];                                           \
        for (uint32_t k = 0; d->pColorAttachments && k < d->colorAttachmentCount; ++k) {                               \
            subpass_add(&(r)->subpasses[i], d->pColorAttachments[k].attachment, true, false);                          \
            if (d->pResolveAttachments)                                                                                \
                subpass_add(&(r)->subpasses[i], d->pResolveAttachments[k].attachment, true, false);                    \
        }                                                                                                              \
        for (uint32_t k = 0; d->pInputAttachments && k < d->inputAttachmentCount; ++k)                                 \
            subpass_add(&(r)->subpasses[i], d->pInputAttachments[k].attachment, false, false);                         \
        if (d->pDepthStencilAttachment)                                                                                \
            subpass_add(&(r)->subpasses[i], d->pDepthStencilAttachment->attachment,                                    \
                        depth_layout_writable(d->pDepthStencilAttachment->layout), true);                              \
    }

static bool has_stencil(VkFormat format)
{
    return format == VK_FORMAT_S8_UINT || format == VK_FORMAT_D16_UNORM_S8_UINT ||
           format == VK_FORMAT_D24_UNORM_S8_UINT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

/* Each attachment's first and last use, for its load/store operations and transitions: the same
 * member names in VkRenderPassCreateInfo and VkRenderPassCreateInfo2. */
static void attachment_used(struct render_pass_state *r, uint32_t index, VkImageLayout layout, bool depth,
                            uint32_t subpass)
{
    if (index == VK_ATTACHMENT_UNUSED || index >= r->attachment_count)
        return;
    struct pass_attachment *a = &r->attachments[index];
    if (!a->used) {
        a->first_layout = layout;
        a->first_subpass = subpass;
    }
    a->used = true;
    a->depth = a->depth || depth;
    a->last_layout = layout;
    a->last_subpass = subpass;
}

#define DESCRIBE_ATTACHMENTS(r, info)                                                                                  \
    for (uint32_t i = 0; (r)->attachments && (info)->pAttachments && i < (info)->attachmentCount; ++i) {               \
        const __typeof__((info)->pAttachments[0]) *a = &(info)->pAttachments[i];                                       \
        struct pass_attachment *p = &(r)->attachments[i];                                                              \
        p->initial = a->initialLayout;                                                                                 \
        p->final = a->finalLayout;                                                                                     \
        /* the stencil operations apply only to formats with a stencil aspect */                                       \
        bool stencil = has_stencil(a->format);                                                                         \
        p->load_reads =                                                                                                \
            a->loadOp == VK_ATTACHMENT_LOAD_OP_LOAD || (stencil && a->stencilLoadOp == VK_ATTACHMENT_LOAD_OP_LOAD);    \
        p->load_writes = a->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR || a->loadOp == VK_ATTACHMENT_LOAD_OP_DONT_CARE ||   \
                         (stencil && (a->stencilLoadOp == VK_ATTACHMENT_LOAD_OP_CLEAR ||                               \
                                      a->stencilLoadOp == VK_ATTACHMENT_LOAD_OP_DONT_CARE));                           \
        p->store_writes = a->storeOp == VK_ATTACHMENT_STORE_OP_STORE ||                                                \
                          a->storeOp == VK_ATTACHMENT_STORE_OP_DONT_CARE ||                                            \
                          (stencil && (a->stencilStoreOp == VK_ATTACHMENT_STORE_OP_STORE ||                            \
                                       a->stencilStoreOp == VK_ATTACHMENT_STORE_OP_DONT_CARE));                        \
    }                                                                                                                  \
    for (uint32_t i = 0; (r)->attachments && (info)->pSubpasses && i < (info)->subpassCount; ++i) {                    \
        const __typeof__((info)->pSubpasses[0]) *d = &(info)->pSubpasses[i];                                           \
        for (uint32_t k = 0; d->pInputAttachments && k < d->inputAttachmentCount; ++k)                                 \
            attachment_used(r, d->pInputAttachments[k].attachment, d->pInputAttachments[k].layout, false, i);          \
        for (uint32_t k = 0; d->pColorAttachments && k < d->colorAttachmentCount; ++k) {                               \
            attachment_used(r, d->pColorAttachments[k].attachment, d->pColorAttachments[k].layout, false, i);          \
            if (d->pResolveAttachments)                                                                                \
                attachment_used(r, d->pResolveAttachments[k].attachment, d->pResolveAttachments[k].layout, false, i);  \
        }                                                                                                              \
        if (d->pDepthStencilAttachment)                                                                                \
            attachment_used(r, d->pDepthStencilAttachment->attachment, d->pDepthStencilAttachment->layout, true, i);   \
    }

/* VkAccessFlags2 of attachments, for the spec's implicit external dependencies */
#define ATTACHMENT_ACCESSES                                                                                            \
    (0x10ull /* INPUT_ATTACHMENT_READ */ | HAZARD_ACCESS_COLOR_READ | HAZARD_ACCESS_COLOR_WRITE |                      \
     HAZARD_ACCESS_DEPTH_READ | HAZARD_ACCESS_DEPTH_WRITE)

/* One subpass dependency: with VK_SUBPASS_EXTERNAL, into the union the pass's start or end
 * applies; between two subpasses, kept for the entry into its second one. */
static void add_dependency(struct render_pass_state *r, uint32_t src_subpass, uint32_t dst_subpass, uint64_t src,
                           uint64_t dst, uint64_t src_access, uint64_t dst_access, uint32_t capacity)
{
    if (src_subpass != VK_SUBPASS_EXTERNAL && dst_subpass != VK_SUBPASS_EXTERNAL) {
        if (src_subpass != dst_subpass && r->dependencies != NULL && r->dependency_count < capacity)
            r->dependencies[r->dependency_count++] =
                (struct pass_dependency){src_subpass, dst_subpass, src, dst, src_access, dst_access};
        return;
    }
    if (src_subpass == VK_SUBPASS_EXTERNAL && dst_subpass != VK_SUBPASS_EXTERNAL) {
        r->has_begin_dependency = true;
        r->begin_src_stages |= src;
        r->begin_dst_stages |= dst;
        r->begin_src_access |= src_access;
        r->begin_dst_access |= dst_access;
    } else if (dst_subpass == VK_SUBPASS_EXTERNAL && src_subpass != VK_SUBPASS_EXTERNAL) {
        r->has_end_dependency = true;
        r->end_src_stages |= src;
        r->end_dst_stages |= dst;
        r->end_src_access |= src_access;
        r->end_dst_access |= dst_access;
    }
}

/* Without an explicit one, the spec's implicit dependencies: nothing before the pass is in the
 * first scope at its start; at its end, attachment writes are made available, nothing visible. */
static void implicit_dependencies(struct render_pass_state *r)
{
    if (!r->has_begin_dependency) {
        r->begin_src_stages = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
        r->begin_dst_stages = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
        r->begin_dst_access = ATTACHMENT_ACCESSES;
    }
    if (!r->has_end_dependency) {
        r->end_src_stages = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
        r->end_src_access = HAZARD_ACCESS_COLOR_WRITE | HAZARD_ACCESS_DEPTH_WRITE;
        r->end_dst_stages = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    }
}

static struct render_pass_state *new_render_pass(uint32_t subpass_count, uint32_t attachment_count)
{
    struct render_pass_state *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return NULL;
    r->subpass_count = subpass_count;
    r->subpasses = calloc(subpass_count ? subpass_count : 1, sizeof(*r->subpasses));
    r->attachment_count = attachment_count;
    r->attachments = calloc(attachment_count ? attachment_count : 1, sizeof(*r->attachments));
    if (r->attachments == NULL)
        r->attachment_count = 0;
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateRenderPass(VkDevice device, const VkRenderPassCreateInfo *info,
                                                              const VkAllocationCallbacks *allocator,
                                                              VkRenderPass *render_pass)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateRenderPass(device, info, allocator, render_pass);
    struct render_pass_state *r =
        result == VK_SUCCESS ? new_render_pass(info->subpassCount, info->attachmentCount) : NULL;
    if (r == NULL)
        return result;
    DESCRIBE_SUBPASSES(r, info)
    DESCRIBE_ATTACHMENTS(r, info)
    r->dependencies = calloc(info->dependencyCount ? info->dependencyCount : 1, sizeof(*r->dependencies));
    for (uint32_t i = 0; info->pDependencies && i < info->dependencyCount; ++i) {
        const VkSubpassDependency *d = &info->pDependencies[i];
        add_dependency(r, d->srcSubpass, d->dstSubpass, d->srcStageMask, d->dstStageMask, d->srcAccessMask,
                       d->dstAccessMask, info->dependencyCount);
    }
    implicit_dependencies(r);
    store_render_pass(ld, *render_pass, r);
    return result;
}

static VkResult create_render_pass2(PFN_vkCreateRenderPass2 down, VkDevice device, const VkRenderPassCreateInfo2 *info,
                                    const VkAllocationCallbacks *allocator, VkRenderPass *render_pass)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = down(device, info, allocator, render_pass);
    struct render_pass_state *r =
        result == VK_SUCCESS ? new_render_pass(info->subpassCount, info->attachmentCount) : NULL;
    if (r == NULL)
        return result;
    DESCRIBE_SUBPASSES(r, info)
    DESCRIBE_ATTACHMENTS(r, info)
    r->dependencies = calloc(info->dependencyCount ? info->dependencyCount : 1, sizeof(*r->dependencies));
    for (uint32_t i = 0; info->pDependencies && i < info->dependencyCount; ++i) {
        const VkSubpassDependency2 *d = &info->pDependencies[i];
        uint64_t src = d->srcStageMask, dst = d->dstStageMask, src_access = d->srcAccessMask,
                 dst_access = d->dstAccessMask;
        for (const VkBaseInStructure *n = d->pNext; n != NULL; n = n->pNext) {
            if (n->sType == VK_STRUCTURE_TYPE_MEMORY_BARRIER_2) { /* synchronization2 masks replace these */
                const VkMemoryBarrier2 *m = (const VkMemoryBarrier2 *)n;
                src = m->srcStageMask;
                dst = m->dstStageMask;
                src_access = m->srcAccessMask;
                dst_access = m->dstAccessMask;
            }
        }
        add_dependency(r, d->srcSubpass, d->dstSubpass, src, dst, src_access, dst_access, info->dependencyCount);
    }
    implicit_dependencies(r);
    store_render_pass(ld, *render_pass, r);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2 *info,
                                                               const VkAllocationCallbacks *allocator,
                                                               VkRenderPass *render_pass)
{
    return create_render_pass2(layer_device_of(device)->dispatch.CreateRenderPass2, device, info, allocator,
                               render_pass);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyRenderPass(VkDevice device, VkRenderPass render_pass,
                                                           const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    lifetime_check_destroy(ld, VK_OBJECT_TYPE_RENDER_PASS, HANDLE(render_pass), 0, "vkDestroyRenderPass");
    render_pass_state_free(handle_map_take(&ld->render_passes, HANDLE(render_pass)));
    ld->dispatch.DestroyRenderPass(device, render_pass, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateFramebuffer(VkDevice device, const VkFramebufferCreateInfo *info,
                                                               const VkAllocationCallbacks *allocator,
                                                               VkFramebuffer *framebuffer)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateFramebuffer(device, info, allocator, framebuffer);
    /* imageless framebuffers get their views at vkCmdBeginRenderPass */
    if (result != VK_SUCCESS || (info->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT))
        return result;
    struct framebuffer_state *f = calloc(1, sizeof(*f));
    if (f == NULL)
        return result;
    for (uint32_t i = 0; i < info->attachmentCount && f->count < MAX_ATTACHMENTS * 2; ++i)
        f->views[f->count++] = info->pAttachments[i];
    handle_map_put(&ld->framebuffers, HANDLE(*framebuffer), f);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
                                                            const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    lifetime_check_destroy(ld, VK_OBJECT_TYPE_FRAMEBUFFER, HANDLE(framebuffer), 0, "vkDestroyFramebuffer");
    free(handle_map_take(&ld->framebuffers, HANDLE(framebuffer)));
    ld->dispatch.DestroyFramebuffer(device, framebuffer, allocator);
}

/* Which operation on an attachment: depth/stencil loads happen in EARLY_FRAGMENT_TESTS, stores in
 * LATE_FRAGMENT_TESTS, color ones and resolves in COLOR_ATTACHMENT_OUTPUT. */
enum attachment_op { ATTACHMENT_LOAD, ATTACHMENT_STORE, ATTACHMENT_RESOLVE };
static bool attachment_access(struct layer_device *ld, VkImageView view, uint32_t layers, bool depth,
                              enum attachment_op op, bool write, struct hazard_access *out);

/* A render pass for the hazard tracker. At its start the dependencies from VK_SUBPASS_EXTERNAL
 * (the union of the application's, else the implicit one); entering a subpass, the dependencies
 * from earlier subpasses into it; at an attachment's first subpass its transition from the
 * initial layout and its load operation, at its last subpass its store operation (as part of the
 * same command as the load); at the end the dependencies into VK_SUBPASS_EXTERNAL and the
 * transitions to the final layouts. A dependency applies to every earlier use whose stages are in
 * its first scope, not only to those of its source subpass (it can hide a finding, never make
 * one). Input attachment reads of attachments first used in an earlier subpass are draw accesses
 * (check_alias.c exports them). Layout transitions between subpasses and draws' own attachment
 * writes are not tracked. */
static void pass_enter_subpass(struct layer_device *ld, struct command_buffer_state *cb,
                               const struct render_pass_state *r)
{
    bound_state_forget(&cb->graphics); /* which input attachment reads are tracked depends on the subpass */
    for (uint32_t i = 0; cb->subpass > 0 && i < r->dependency_count; ++i) {
        const struct pass_dependency *d = &r->dependencies[i];
        if (d->dst != cb->subpass)
            continue;
        const struct hazard_memory_barrier m = {
            .global = true, .src_access = d->src_access, .dst_access = d->dst_access};
        hazard_barrier(cb, d->src_stages, d->dst_stages, &m, 1);
    }
    struct hazard_accesses loads = {.count = 0};
    for (uint32_t i = 0; i < r->attachment_count && i < cb->pass_view_count; ++i) {
        const struct pass_attachment *a = &r->attachments[i];
        struct hazard_access range;
        /* a LOAD reads (ATTACHMENT_READ access), CLEAR and DONT_CARE write; depth and stencil may
         * do one each */
        if (!a->used || a->first_subpass != cb->subpass ||
            !attachment_access(ld, cb->pass_views[i], 0, a->depth, ATTACHMENT_LOAD, a->load_writes, &range))
            continue;
        if (a->load_reads && a->load_writes)
            range.access |= a->depth ? HAZARD_ACCESS_DEPTH_READ : HAZARD_ACCESS_COLOR_READ;
        cb->pass_load_command[i] = cb->command_index;
        if (a->initial != a->first_layout) {
            struct hazard_memory_barrier t = hazard_barrier_over(&range, r->begin_src_access, r->begin_dst_access);
            hazard_image_transition(ld, cb, r->begin_src_stages, r->begin_dst_stages, &t, "vkCmdBeginRenderPass");
        }
        if ((a->load_reads || a->load_writes) && loads.count < HAZARD_MAX_ACCESSES) {
            range.read = a->load_reads;
            range.write = a->load_writes;
            loads.a[loads.count++] = range;
        }
    }
    hazard_command(ld, cb, &loads, cb->subpass ? "vkCmdNextSubpass" : "vkCmdBeginRenderPass");
}

static void pass_leave_subpass(struct layer_device *ld, struct command_buffer_state *cb,
                               const struct render_pass_state *r, const char *call)
{
    for (uint32_t i = 0; i < r->attachment_count && i < cb->pass_view_count; ++i) {
        const struct pass_attachment *a = &r->attachments[i];
        struct hazard_accesses store = {.count = 1};
        if (!a->used || a->last_subpass != cb->subpass || !a->store_writes ||
            (a->depth && !depth_layout_writable(a->last_layout)) ||
            !attachment_access(ld, cb->pass_views[i], 0, a->depth, ATTACHMENT_STORE, true, &store.a[0]))
            continue;
        hazard_command_at(ld, cb, &store, call, cb->pass_load_command[i]);
    }
}

static void pass_begin_operations(struct layer_device *ld, struct command_buffer_state *cb,
                                  const struct render_pass_state *r)
{
    const struct hazard_memory_barrier dependency = {
        .global = true, .src_access = r->begin_src_access, .dst_access = r->begin_dst_access};
    hazard_barrier(cb, r->begin_src_stages, r->begin_dst_stages, &dependency, 1);
    pass_enter_subpass(ld, cb, r);
}

static void pass_end_operations(struct layer_device *ld, struct command_buffer_state *cb,
                                const struct render_pass_state *r)
{
    pass_leave_subpass(ld, cb, r, "vkCmdEndRenderPass");
    const struct hazard_memory_barrier dependency = {
        .global = true, .src_access = r->end_src_access, .dst_access = r->end_dst_access};
    hazard_barrier(cb, r->end_src_stages, r->end_dst_stages, &dependency, 1);
    for (uint32_t i = 0; i < r->attachment_count && i < cb->pass_view_count; ++i) {
        const struct pass_attachment *a = &r->attachments[i];
        struct hazard_access range;
        if (!a->used || a->final == a->last_layout ||
            !attachment_access(ld, cb->pass_views[i], 0, a->depth, ATTACHMENT_STORE, true, &range))
            continue;
        /* the pass's own store operation is available to its final transition */
        struct hazard_memory_barrier t =
            hazard_barrier_over(&range, r->end_src_access | range.access, r->end_dst_access);
        hazard_image_transition(ld, cb, r->end_src_stages, r->end_dst_stages, &t, "vkCmdEndRenderPass");
    }
}

/* The current subpass's attachments, as views, into cb->attachments. */
static void enter_subpass(struct command_buffer_state *cb, const struct render_pass_state *r)
{
    cb->attachment_count = 0;
    if (r == NULL || cb->subpass >= r->subpass_count)
        return;
    const struct subpass_attachments *s = &r->subpasses[cb->subpass];
    for (uint32_t i = 0; i < s->count; ++i) {
        if (s->index[i] >= cb->pass_view_count)
            continue;
        cb->attachments[cb->attachment_count++] =
            (struct attachment_use){cb->pass_views[s->index[i]], s->write[i], s->depth[i]};
    }
}

static struct layer_device *begin_render_pass(VkCommandBuffer command_buffer, const VkRenderPassBeginInfo *begin)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL || begin == NULL)
        return ld;
    cb->render_pass = begin->renderPass;
    cb->subpass = 0;
    cb->pass_view_count = 0;
    const VkRenderPassAttachmentBeginInfo *imageless = NULL;
    for (const VkBaseInStructure *s = begin->pNext; s != NULL; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO)
            imageless = (const VkRenderPassAttachmentBeginInfo *)s;
    if (imageless != NULL) {
        for (uint32_t i = 0; i < imageless->attachmentCount && i < MAX_ATTACHMENTS * 2; ++i)
            cb->pass_views[cb->pass_view_count++] = imageless->pAttachments[i];
    } else {
        const struct framebuffer_state *f = handle_map_get(&ld->framebuffers, HANDLE(begin->framebuffer));
        for (uint32_t i = 0; f != NULL && i < f->count; ++i)
            cb->pass_views[cb->pass_view_count++] = f->views[i];
        if (f != NULL)
            lifetime_note_object(cb, VK_OBJECT_TYPE_FRAMEBUFFER, HANDLE(begin->framebuffer), 0, "vkCmdBeginRenderPass");
    }
    lifetime_note_object(cb, VK_OBJECT_TYPE_RENDER_PASS, HANDLE(begin->renderPass), 0, "vkCmdBeginRenderPass");
    for (uint32_t i = 0; i < cb->pass_view_count; ++i)
        if (handle_map_get(&ld->image_views, HANDLE(cb->pass_views[i])) != NULL)
            lifetime_note_object(cb, VK_OBJECT_TYPE_IMAGE_VIEW, HANDLE(cb->pass_views[i]), 0, "vkCmdBeginRenderPass");
    const struct render_pass_state *r = handle_map_get(&ld->render_passes, HANDLE(cb->render_pass));
    if (r != NULL)
        pass_begin_operations(ld, cb, r);
    else
        hazard_forget(cb); /* an unknown render pass: assume the application right */
    enter_subpass(cb, r);
    cb->command_index++;
    return ld;
}

static struct layer_device *next_subpass(VkCommandBuffer command_buffer)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return ld;
    const struct render_pass_state *r = handle_map_get(&ld->render_passes, HANDLE(cb->render_pass));
    if (r != NULL)
        pass_leave_subpass(ld, cb, r, "vkCmdNextSubpass");
    cb->subpass++;
    if (r != NULL)
        pass_enter_subpass(ld, cb, r);
    else
        hazard_forget(cb); /* an unknown render pass: assume the application right */
    enter_subpass(cb, r);
    cb->command_index++;
    return ld;
}

static struct layer_device *end_rendering(VkCommandBuffer command_buffer)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return ld;
    if (cb->dynamic_rendering) {
        /* store and resolve operations: part of the rendering, after its load operations and draws */
        struct hazard_accesses stores = {.count = cb->rendering_store_count};
        memcpy(stores.a, cb->rendering_stores, stores.count * sizeof(stores.a[0]));
        hazard_command_at(ld, cb, &stores, "vkCmdEndRendering", cb->rendering_command);
    } else if (cb->render_pass != VK_NULL_HANDLE) {
        const struct render_pass_state *r = handle_map_get(&ld->render_passes, HANDLE(cb->render_pass));
        if (r != NULL)
            pass_end_operations(ld, cb, r);
        else
            hazard_forget(cb);
    }
    cb->dynamic_rendering = false;
    cb->rendering_store_count = 0;
    cb->render_pass = VK_NULL_HANDLE;
    cb->attachment_count = 0;
    cb->pass_view_count = 0;
    cb->command_index++;
    return ld;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBeginRenderPass(VkCommandBuffer command_buffer,
                                                            const VkRenderPassBeginInfo *begin,
                                                            VkSubpassContents contents)
{
    struct layer_device *ld = begin_render_pass(command_buffer, begin);
    ld->dispatch.CmdBeginRenderPass(command_buffer, begin, contents);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBeginRenderPass2(VkCommandBuffer command_buffer,
                                                             const VkRenderPassBeginInfo *begin,
                                                             const VkSubpassBeginInfo *subpass)
{
    struct layer_device *ld = begin_render_pass(command_buffer, begin);
    ld->dispatch.CmdBeginRenderPass2(command_buffer, begin, subpass);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdNextSubpass(VkCommandBuffer command_buffer, VkSubpassContents contents)
{
    struct layer_device *ld = next_subpass(command_buffer);
    ld->dispatch.CmdNextSubpass(command_buffer, contents);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdNextSubpass2(VkCommandBuffer command_buffer,
                                                         const VkSubpassBeginInfo *begin, const VkSubpassEndInfo *end)
{
    struct layer_device *ld = next_subpass(command_buffer);
    ld->dispatch.CmdNextSubpass2(command_buffer, begin, end);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdEndRenderPass(VkCommandBuffer command_buffer)
{
    struct layer_device *ld = end_rendering(command_buffer);
    ld->dispatch.CmdEndRenderPass(command_buffer);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdEndRenderPass2(VkCommandBuffer command_buffer, const VkSubpassEndInfo *end)
{
    struct layer_device *ld = end_rendering(command_buffer);
    ld->dispatch.CmdEndRenderPass2(command_buffer, end);
}

/* ---- dynamic rendering ---- */

static void add_rendering_attachment(struct command_buffer_state *cb, const VkRenderingAttachmentInfo *a, bool depth)
{
    if (a == NULL)
        return;
    if (a->imageView != VK_NULL_HANDLE && cb->attachment_count < MAX_ATTACHMENTS)
        cb->attachments[cb->attachment_count++] =
            (struct attachment_use){a->imageView, !depth || depth_layout_writable(a->imageLayout), depth};
    if (a->resolveMode != VK_RESOLVE_MODE_NONE && a->resolveImageView != VK_NULL_HANDLE &&
        cb->attachment_count < MAX_ATTACHMENTS)
        cb->attachments[cb->attachment_count++] = (struct attachment_use){a->resolveImageView, true, false};
}

/* An attachment's access by a load, store or resolve operation (`layers` 0: the view's layers). A
 * resolve of depth/stencil may be described either way: both stages are named, so either barrier
 * covers it. */
static bool attachment_access(struct layer_device *ld, VkImageView view, uint32_t layers, bool depth,
                              enum attachment_op op, bool write, struct hazard_access *out)
{
    if (!hazard_view_range(ld, handle_map_get(&ld->image_views, HANDLE(view)), layers, true, out))
        return false;
    uint64_t color_access = write ? HAZARD_ACCESS_COLOR_WRITE : HAZARD_ACCESS_COLOR_READ;
    uint64_t depth_access = write ? HAZARD_ACCESS_DEPTH_WRITE : HAZARD_ACCESS_DEPTH_READ;
    if (!depth)
        out->stages = HAZARD_STAGE_COLOR_OUTPUT;
    else if (op == ATTACHMENT_RESOLVE)
        out->stages = HAZARD_STAGES_DEPTH_TESTS | HAZARD_STAGE_COLOR_OUTPUT;
    else
        out->stages = op == ATTACHMENT_LOAD ? HAZARD_STAGE_EARLY_FRAGMENT_TESTS : HAZARD_STAGE_LATE_FRAGMENT_TESTS;
    out->access = depth ? depth_access | (op == ATTACHMENT_RESOLVE ? color_access : 0) : color_access;
    out->read = !write;
    out->write = write;
    return true;
}

/* The load operation (now, into `loads`) and the store and resolve operations (at
 * vkCmdEndRendering, into the command buffer) of one attachment. LOAD reads; CLEAR and DONT_CARE
 * write; STORE and DONT_CARE stores write, unless the layout is read-only; NONE does nothing. A
 * resuming rendering has no load operations, a suspending one no store operations. */
static void rendering_operations(struct layer_device *ld, struct command_buffer_state *cb,
                                 const VkRenderingAttachmentInfo *a, const VkRenderingInfo *info, bool depth,
                                 struct hazard_accesses *loads)
{
    if (a == NULL || a->imageView == VK_NULL_HANDLE)
        return;
    uint32_t layers = info->layerCount;
    if (info->viewMask != 0) /* multiview: the layers up to the highest view */
        for (layers = 32; !(info->viewMask & (1u << (layers - 1))); --layers)
            ;
    bool writable = !depth || depth_layout_writable(a->imageLayout);
    if (!(info->flags & VK_RENDERING_RESUMING_BIT) && loads->count < HAZARD_MAX_ACCESSES &&
        (a->loadOp == VK_ATTACHMENT_LOAD_OP_LOAD || a->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR ||
         a->loadOp == VK_ATTACHMENT_LOAD_OP_DONT_CARE) &&
        attachment_access(ld, a->imageView, layers, depth, ATTACHMENT_LOAD, a->loadOp != VK_ATTACHMENT_LOAD_OP_LOAD,
                          &loads->a[loads->count]))
        loads->count++;
    if (info->flags & VK_RENDERING_SUSPENDING_BIT)
        return;
    if (writable && (a->storeOp == VK_ATTACHMENT_STORE_OP_STORE || a->storeOp == VK_ATTACHMENT_STORE_OP_DONT_CARE) &&
        cb->rendering_store_count < MAX_ATTACHMENTS * 2 &&
        attachment_access(ld, a->imageView, layers, depth, ATTACHMENT_STORE, true,
                          &cb->rendering_stores[cb->rendering_store_count]))
        cb->rendering_store_count++;
    if (a->resolveMode != VK_RESOLVE_MODE_NONE && a->resolveImageView != VK_NULL_HANDLE &&
        cb->rendering_store_count < MAX_ATTACHMENTS * 2 &&
        attachment_access(ld, a->resolveImageView, layers, depth, ATTACHMENT_RESOLVE, true,
                          &cb->rendering_stores[cb->rendering_store_count]))
        cb->rendering_store_count++;
}

/* The views a dynamic rendering renders to and resolves into, for the lifetime checks. */
static void note_rendering_views(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info)
{
    const VkRenderingAttachmentInfo *depth_stencil[2] = {info->pDepthAttachment, info->pStencilAttachment};
    for (uint32_t i = 0; i < info->colorAttachmentCount + 2; ++i) {
        const VkRenderingAttachmentInfo *a = i < info->colorAttachmentCount
                                                 ? &info->pColorAttachments[i]
                                                 : depth_stencil[i - info->colorAttachmentCount];
        if (a == NULL)
            continue;
        VkImageView views[2] = {a->imageView,
                                a->resolveMode != VK_RESOLVE_MODE_NONE ? a->resolveImageView : VK_NULL_HANDLE};
        for (int k = 0; k < 2; ++k)
            if (views[k] != VK_NULL_HANDLE && handle_map_get(&ld->image_views, HANDLE(views[k])) != NULL)
                lifetime_note_object(cb, VK_OBJECT_TYPE_IMAGE_VIEW, HANDLE(views[k]), 0, "vkCmdBeginRendering");
    }
}

static struct layer_device *begin_rendering(VkCommandBuffer command_buffer, const VkRenderingInfo *info)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL || info == NULL)
        return ld;
    cb->render_pass = VK_NULL_HANDLE;
    cb->attachment_count = 0;
    for (uint32_t i = 0; i < info->colorAttachmentCount; ++i)
        add_rendering_attachment(cb, &info->pColorAttachments[i], false);
    note_rendering_views(ld, cb, info);
    add_rendering_attachment(cb, info->pDepthAttachment, true);
    /* the same view as depth and stencil is one attachment use */
    bool separate_stencil =
        info->pStencilAttachment &&
        !(info->pDepthAttachment && info->pDepthAttachment->imageView == info->pStencilAttachment->imageView);
    if (separate_stencil)
        add_rendering_attachment(cb, info->pStencilAttachment, true);
    /* the hazard tracker sees the load operations now, the stores at vkCmdEndRendering */
    struct hazard_accesses loads = {.count = 0};
    cb->dynamic_rendering = true;
    cb->rendering_command = cb->command_index;
    cb->rendering_store_count = 0;
    for (uint32_t i = 0; i < info->colorAttachmentCount; ++i)
        rendering_operations(ld, cb, &info->pColorAttachments[i], info, false, &loads);
    rendering_operations(ld, cb, info->pDepthAttachment, info, true, &loads);
    if (separate_stencil)
        rendering_operations(ld, cb, info->pStencilAttachment, info, true, &loads);
    hazard_command(ld, cb, &loads, "vkCmdBeginRendering");
    cb->command_index++;
    return ld;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBeginRendering(VkCommandBuffer command_buffer, const VkRenderingInfo *info)
{
    struct layer_device *ld = begin_rendering(command_buffer, info);
    ld->dispatch.CmdBeginRendering(command_buffer, info);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdEndRendering(VkCommandBuffer command_buffer)
{
    struct layer_device *ld = end_rendering(command_buffer);
    ld->dispatch.CmdEndRendering(command_buffer);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdSetDepthWriteEnable(VkCommandBuffer command_buffer, VkBool32 enable)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        cb->depth_write_enable = enable;
    ld->dispatch.CmdSetDepthWriteEnable(command_buffer, enable);
}

/* ---- vertex and index buffers ---- */

static struct layer_device *bind_vertex_buffers(VkCommandBuffer command_buffer, uint32_t first, uint32_t count,
                                                const VkBuffer *buffers, const VkDeviceSize *offsets)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return ld;
    for (uint32_t i = 0; i < count && first + i < MAX_VERTEX_BINDINGS; ++i) {
        cb->vertex_buffers[first + i] = buffers ? buffers[i] : VK_NULL_HANDLE;
        cb->vertex_offsets[first + i] = offsets ? offsets[i] : 0;
    }
    cb->command_index++;
    return ld;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBindVertexBuffers(VkCommandBuffer command_buffer, uint32_t first,
                                                              uint32_t count, const VkBuffer *buffers,
                                                              const VkDeviceSize *offsets)
{
    struct layer_device *ld = bind_vertex_buffers(command_buffer, first, count, buffers, offsets);
    ld->dispatch.CmdBindVertexBuffers(command_buffer, first, count, buffers, offsets);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBindVertexBuffers2(VkCommandBuffer command_buffer, uint32_t first,
                                                               uint32_t count, const VkBuffer *buffers,
                                                               const VkDeviceSize *offsets, const VkDeviceSize *sizes,
                                                               const VkDeviceSize *strides)
{
    struct layer_device *ld = bind_vertex_buffers(command_buffer, first, count, buffers, offsets);
    ld->dispatch.CmdBindVertexBuffers2(command_buffer, first, count, buffers, offsets, sizes, strides);
}

static uint32_t index_size(VkIndexType type)
{
    switch (type) {
    case VK_INDEX_TYPE_UINT16:
        return 2;
    case VK_INDEX_TYPE_UINT32:
        return 4;
    case VK_INDEX_TYPE_UINT8_EXT:
        return 1;
    default:
        return 0;
    }
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBindIndexBuffer(VkCommandBuffer command_buffer, VkBuffer buffer,
                                                            VkDeviceSize offset, VkIndexType type)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        cb->index_buffer = buffer;
        cb->index_offset = offset;
        cb->index_size = index_size(type);
        cb->command_index++;
    }
    ld->dispatch.CmdBindIndexBuffer(command_buffer, buffer, offset, type);
}

/* ---- draws ---- */

static void add_fixed(struct alias_fixed_reads *f, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                      const char *what)
{
    if (buffer == VK_NULL_HANDLE || size == 0 || f->count >= MAX_VERTEX_BINDINGS + 2)
        return;
    f->buffer[f->count] = buffer;
    f->offset[f->count] = offset;
    f->size[f->count] = size;
    f->what[f->count] = what;
    f->count++;
}

/* Vertex-rate buffers over vertices [first, first + count). */
static void add_vertices(const struct command_buffer_state *cb, struct alias_fixed_reads *f, uint32_t first,
                         uint32_t count)
{
    const struct pipeline_state *p = cb->graphics.pipeline;
    for (uint32_t i = 0; p != NULL && i < MAX_VERTEX_BINDINGS; ++i)
        if (p->vertex_strides[i] != 0 && cb->vertex_buffers[i] != VK_NULL_HANDLE)
            add_fixed(f, cb->vertex_buffers[i], cb->vertex_offsets[i] + (VkDeviceSize)first * p->vertex_strides[i],
                      (VkDeviceSize)count * p->vertex_strides[i], "vertex buffer");
}

static void drawn(struct layer_device *ld, struct command_buffer_state *cb, const struct alias_fixed_reads *fixed,
                  const char *call)
{
    check_binding_command(ld, cb, &cb->graphics, call);
    struct hazard_accesses scratch;
    hazard_command(ld, cb, check_alias_command(ld, cb, &cb->graphics, fixed, call, &scratch), call);
    lifetime_note_bound(cb, &cb->graphics, call);
    cb->command_index++;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDraw(VkCommandBuffer command_buffer, uint32_t vertex_count,
                                                 uint32_t instance_count, uint32_t first_vertex,
                                                 uint32_t first_instance)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        struct alias_fixed_reads fixed = {.count = 0};
        add_vertices(cb, &fixed, first_vertex, vertex_count);
        drawn(ld, cb, &fixed, "vkCmdDraw");
    }
    ld->dispatch.CmdDraw(command_buffer, vertex_count, instance_count, first_vertex, first_instance);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDrawIndexed(VkCommandBuffer command_buffer, uint32_t index_count,
                                                        uint32_t instance_count, uint32_t first_index,
                                                        int32_t vertex_offset, uint32_t first_instance)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        struct alias_fixed_reads fixed = {.count = 0};
        add_fixed(&fixed, cb->index_buffer, cb->index_offset + (VkDeviceSize)first_index * cb->index_size,
                  (VkDeviceSize)index_count * cb->index_size, "index buffer");
        drawn(ld, cb, &fixed, "vkCmdDrawIndexed");
    }
    ld->dispatch.CmdDrawIndexed(command_buffer, index_count, instance_count, first_index, vertex_offset,
                                first_instance);
}

/* Indirect draws: the argument records, and the count buffer; vertex and index ranges come from
 * GPU memory and are left out. */
static struct layer_device *indirect_draw(VkCommandBuffer command_buffer, VkBuffer buffer, VkDeviceSize offset,
                                          uint32_t draw_count, uint32_t stride, VkDeviceSize record_size,
                                          VkBuffer count_buffer, VkDeviceSize count_offset, const char *call)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return ld;
    struct alias_fixed_reads fixed = {.count = 0};
    if (draw_count > 0)
        add_fixed(&fixed, buffer, offset, (VkDeviceSize)(draw_count - 1) * stride + record_size, "indirect buffer");
    add_fixed(&fixed, count_buffer, count_offset, sizeof(uint32_t), "indirect count buffer");
    drawn(ld, cb, &fixed, call);
    return ld;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDrawIndirect(VkCommandBuffer command_buffer, VkBuffer buffer,
                                                         VkDeviceSize offset, uint32_t draw_count, uint32_t stride)
{
    struct layer_device *ld = indirect_draw(command_buffer, buffer, offset, draw_count, stride,
                                            sizeof(VkDrawIndirectCommand), VK_NULL_HANDLE, 0, "vkCmdDrawIndirect");
    ld->dispatch.CmdDrawIndirect(command_buffer, buffer, offset, draw_count, stride);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDrawIndexedIndirect(VkCommandBuffer command_buffer, VkBuffer buffer,
                                                                VkDeviceSize offset, uint32_t draw_count,
                                                                uint32_t stride)
{
    struct layer_device *ld =
        indirect_draw(command_buffer, buffer, offset, draw_count, stride, sizeof(VkDrawIndexedIndirectCommand),
                      VK_NULL_HANDLE, 0, "vkCmdDrawIndexedIndirect");
    ld->dispatch.CmdDrawIndexedIndirect(command_buffer, buffer, offset, draw_count, stride);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDrawIndirectCount(VkCommandBuffer command_buffer, VkBuffer buffer,
                                                              VkDeviceSize offset, VkBuffer count_buffer,
                                                              VkDeviceSize count_offset, uint32_t max_draws,
                                                              uint32_t stride)
{
    struct layer_device *ld =
        indirect_draw(command_buffer, buffer, offset, max_draws, stride, sizeof(VkDrawIndirectCommand), count_buffer,
                      count_offset, "vkCmdDrawIndirectCount");
    ld->dispatch.CmdDrawIndirectCount(command_buffer, buffer, offset, count_buffer, count_offset, max_draws, stride);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDrawIndexedIndirectCount(VkCommandBuffer command_buffer, VkBuffer buffer,
                                                                     VkDeviceSize offset, VkBuffer count_buffer,
                                                                     VkDeviceSize count_offset, uint32_t max_draws,
                                                                     uint32_t stride)
{
    struct layer_device *ld =
        indirect_draw(command_buffer, buffer, offset, max_draws, stride, sizeof(VkDrawIndexedIndirectCommand),
                      count_buffer, count_offset, "vkCmdDrawIndexedIndirectCount");
    ld->dispatch.CmdDrawIndexedIndirectCount(command_buffer, buffer, offset, count_buffer, count_offset, max_draws,
                                             stride);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDrawMeshTasksEXT(VkCommandBuffer command_buffer, uint32_t x, uint32_t y,
                                                             uint32_t z)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        drawn(ld, cb, NULL, "vkCmdDrawMeshTasksEXT");
    ld->dispatch.CmdDrawMeshTasksEXT(command_buffer, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDrawMeshTasksIndirectEXT(VkCommandBuffer command_buffer, VkBuffer buffer,
                                                                     VkDeviceSize offset, uint32_t draw_count,
                                                                     uint32_t stride)
{
    struct layer_device *ld =
        indirect_draw(command_buffer, buffer, offset, draw_count, stride, sizeof(VkDrawMeshTasksIndirectCommandEXT),
                      VK_NULL_HANDLE, 0, "vkCmdDrawMeshTasksIndirectEXT");
    ld->dispatch.CmdDrawMeshTasksIndirectEXT(command_buffer, buffer, offset, draw_count, stride);
}

const struct layer_hook rendering_hooks[] = {
    LAYER_HOOK(vkCreateRenderPass),
    LAYER_HOOK(vkCreateRenderPass2),
    LAYER_HOOK(vkDestroyRenderPass),
    LAYER_HOOK(vkCreateFramebuffer),
    LAYER_HOOK(vkDestroyFramebuffer),
    LAYER_HOOK(vkCmdBeginRenderPass),
    LAYER_HOOK(vkCmdBeginRenderPass2),
    LAYER_HOOK(vkCmdNextSubpass),
    LAYER_HOOK(vkCmdNextSubpass2),
    LAYER_HOOK(vkCmdEndRenderPass),
    LAYER_HOOK(vkCmdEndRenderPass2),
    LAYER_HOOK(vkCmdBeginRendering),
    LAYER_HOOK(vkCmdEndRendering),
    LAYER_HOOK(vkCmdSetDepthWriteEnable),
    LAYER_HOOK(vkCmdBindVertexBuffers),
    LAYER_HOOK(vkCmdBindVertexBuffers2),
    LAYER_HOOK(vkCmdBindIndexBuffer),
    LAYER_HOOK(vkCmdDraw),
    LAYER_HOOK(vkCmdDrawIndexed),
    LAYER_HOOK(vkCmdDrawIndirect),
    LAYER_HOOK(vkCmdDrawIndexedIndirect),
    LAYER_HOOK(vkCmdDrawIndirectCount),
    LAYER_HOOK(vkCmdDrawIndexedIndirectCount),
    LAYER_HOOK(vkCmdDrawMeshTasksEXT),
    LAYER_HOOK(vkCmdDrawMeshTasksIndirectEXT),
};
const size_t rendering_hook_count = sizeof(rendering_hooks) / sizeof(rendering_hooks[0]);
