/* Graphics recording: render passes, framebuffers, dynamic rendering, vertex and index buffers,
 * and the draw calls. The hooks record the state (subpass attachments, bound buffers) and call
 * validate.h; the hazard rules of render passes and dynamic rendering are check_hazard_pass.c's.
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

#include "command_access.h"
#include "layer_hooks.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "validate.h"
#include "state_objects.h"

/* ---- render passes and framebuffers ---- */

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
        layer_object_release(OBJECT_KIND_render_pass, r);
        return;
    }
    hook_object_created(ld, OBJECT_KIND_render_pass, HANDLE(handle), r);
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
    hook_object_destroyed(ld, OBJECT_KIND_render_pass, HANDLE(render_pass), "vkDestroyRenderPass");
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
    hook_object_created(ld, OBJECT_KIND_framebuffer, HANDLE(*framebuffer), f);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
                                                            const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_framebuffer, HANDLE(framebuffer), "vkDestroyFramebuffer");
    ld->dispatch.DestroyFramebuffer(device, framebuffer, allocator);
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

/* A VkRect2D as the pixels it covers (a negative offset, invalid usage, is clamped at 0). */
static struct image_rect render_rect_of(VkRect2D r)
{
    uint32_t x0 = r.offset.x > 0 ? (uint32_t)r.offset.x : 0, y0 = r.offset.y > 0 ? (uint32_t)r.offset.y : 0;
    uint64_t x1 = (uint64_t)x0 + r.extent.width, y1 = (uint64_t)y0 + r.extent.height;
    return (struct image_rect){x0, y0, x1 > UINT32_MAX ? UINT32_MAX : (uint32_t)x1,
                               y1 > UINT32_MAX ? UINT32_MAX : (uint32_t)y1};
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
    cb->render_area = render_rect_of(begin->renderArea);
    VkFramebuffer framebuffer = VK_NULL_HANDLE; /* a framebuffer with views (not imageless) the layer knows */
    const VkRenderPassAttachmentBeginInfo *imageless = NULL;
    for (const VkBaseInStructure *s = begin->pNext; s != NULL; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO)
            imageless = (const VkRenderPassAttachmentBeginInfo *)s;
    if (imageless != NULL) {
        for (uint32_t i = 0; i < imageless->attachmentCount && i < MAX_ATTACHMENTS * 2; ++i)
            cb->pass_views[cb->pass_view_count++] = imageless->pAttachments[i];
    } else {
        const struct framebuffer_state *f = framebuffer_state_in(ld, HANDLE(begin->framebuffer));
        for (uint32_t i = 0; f != NULL && i < f->count; ++i)
            cb->pass_views[cb->pass_view_count++] = f->views[i];
        if (f != NULL)
            framebuffer = begin->framebuffer;
    }
    const struct render_pass_state *r = render_pass_state_in(ld, HANDLE(cb->render_pass));
    enter_subpass(cb, r);
    validate_render_pass_begin(ld, cb, r, framebuffer);
    return ld;
}

static struct layer_device *next_subpass(VkCommandBuffer command_buffer)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return ld;
    const struct render_pass_state *r = render_pass_state_in(ld, HANDLE(cb->render_pass));
    validate_subpass_leave(ld, cb, r);
    cb->subpass++;
    enter_subpass(cb, r);
    validate_subpass_enter(ld, cb, r);
    return ld;
}

static struct layer_device *end_rendering(VkCommandBuffer command_buffer)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return ld;
    validate_rendering_end(ld, cb);
    cb->dynamic_rendering = false;
    cb->rendering_store_count = 0;
    cb->render_pass = VK_NULL_HANDLE;
    cb->attachment_count = 0;
    cb->pass_view_count = 0;
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

static struct layer_device *begin_rendering(VkCommandBuffer command_buffer, const VkRenderingInfo *info)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb == NULL || info == NULL)
        return ld;
    cb->render_pass = VK_NULL_HANDLE;
    cb->attachment_count = 0;
    cb->render_area = render_rect_of(info->renderArea);
    for (uint32_t i = 0; i < info->colorAttachmentCount; ++i)
        add_rendering_attachment(cb, &info->pColorAttachments[i], false);
    add_rendering_attachment(cb, info->pDepthAttachment, true);
    /* the same view as depth and stencil is one attachment use */
    if (info->pStencilAttachment &&
        !(info->pDepthAttachment && info->pDepthAttachment->imageView == info->pStencilAttachment->imageView))
        add_rendering_attachment(cb, info->pStencilAttachment, true);
    validate_rendering_begin(ld, cb, info);
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

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDraw(VkCommandBuffer command_buffer, uint32_t vertex_count,
                                                 uint32_t instance_count, uint32_t first_vertex,
                                                 uint32_t first_instance)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        struct command_fixed_reads fixed = {.count = 0};
        command_fixed_vertices(cb, &fixed, first_vertex, vertex_count);
        validate_draw(ld, cb, &fixed, "vkCmdDraw");
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
        struct command_fixed_reads fixed = {.count = 0};
        command_fixed_read(&fixed, cb->index_buffer, cb->index_offset + (VkDeviceSize)first_index * cb->index_size,
                           (VkDeviceSize)index_count * cb->index_size, "index buffer");
        validate_draw(ld, cb, &fixed, "vkCmdDrawIndexed");
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
    struct command_fixed_reads fixed = {.count = 0};
    if (draw_count > 0)
        command_fixed_read(&fixed, buffer, offset, (VkDeviceSize)(draw_count - 1) * stride + record_size,
                           "indirect buffer");
    command_fixed_read(&fixed, count_buffer, count_offset, sizeof(uint32_t), "indirect count buffer");
    validate_draw(ld, cb, &fixed, call);
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
        validate_draw(ld, cb, NULL, "vkCmdDrawMeshTasksEXT");
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
