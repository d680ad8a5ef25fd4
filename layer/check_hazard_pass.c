/* Area `hazard`: render passes and dynamic rendering as the hazard tracker sees them. A render
 * pass or dynamic rendering is its attachments' load operations at the start and store/resolve
 * operations at the end (as part of the starting command), with a render pass's external and
 * subpass dependencies (the implicit ones where the application gave none) and its
 * initial/final layout transitions. */
#include <string.h>

#include "check_hazard.h"
#include "command_access_regions.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "state_pipelines.h"

/* A render pass for the hazard tracker. At its start the dependencies from VK_SUBPASS_EXTERNAL
 * (the union of the application's, else the implicit one); entering a subpass, the dependencies
 * from earlier subpasses into it; at an attachment's first subpass its transition from the
 * initial layout and its load operation, at its last subpass its store operation (as part of the
 * same command as the load); at the end the dependencies into VK_SUBPASS_EXTERNAL and the
 * transitions to the final layouts. A dependency applies to every earlier use whose stages are in
 * its first scope, not only to those of its source subpass (it can hide a finding, never make
 * one). Input attachment reads of attachments first used in an earlier subpass are draw accesses
 * (command_access.c exports them). Layout transitions between subpasses and draws' own attachment
 * writes are not tracked. */
void hazard_pass_enter_subpass(struct layer_device *ld, struct command_buffer_state *cb,
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
            !command_attachment_access(ld, cb->pass_views[i], 0, a->depth, ATTACHMENT_LOAD, a->load_writes,
                                       &cb->render_area, &range))
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

void hazard_pass_leave_subpass(struct layer_device *ld, struct command_buffer_state *cb,
                               const struct render_pass_state *r)
{
    for (uint32_t i = 0; i < r->attachment_count && i < cb->pass_view_count; ++i) {
        const struct pass_attachment *a = &r->attachments[i];
        struct hazard_accesses store = {.count = 1};
        if (!a->used || a->last_subpass != cb->subpass || !a->store_writes ||
            (a->depth && !depth_layout_writable(a->last_layout)) ||
            !command_attachment_access(ld, cb->pass_views[i], 0, a->depth, ATTACHMENT_STORE, true, &cb->render_area,
                                       &store.a[0]))
            continue;
        /* numbered with the load (one command for the tracker: the pass's own load and store do not
         * conflict), and named so that the command number is the pass's start, not this call's */
        hazard_command_at(ld, cb, &store, "the store operations of the render pass begun by vkCmdBeginRenderPass",
                          cb->pass_load_command[i]);
    }
}

void hazard_pass_begin(struct layer_device *ld, struct command_buffer_state *cb, const struct render_pass_state *r)
{
    const struct hazard_memory_barrier dependency = {
        .global = true, .src_access = r->begin_src_access, .dst_access = r->begin_dst_access};
    hazard_barrier(cb, r->begin_src_stages, r->begin_dst_stages, &dependency, 1);
    hazard_pass_enter_subpass(ld, cb, r);
}

void hazard_pass_end(struct layer_device *ld, struct command_buffer_state *cb, const struct render_pass_state *r)
{
    hazard_pass_leave_subpass(ld, cb, r);
    const struct hazard_memory_barrier dependency = {
        .global = true, .src_access = r->end_src_access, .dst_access = r->end_dst_access};
    hazard_barrier(cb, r->end_src_stages, r->end_dst_stages, &dependency, 1);
    for (uint32_t i = 0; i < r->attachment_count && i < cb->pass_view_count; ++i) {
        const struct pass_attachment *a = &r->attachments[i];
        struct hazard_access range;
        if (!a->used || a->final == a->last_layout ||
            !command_attachment_access(ld, cb->pass_views[i], 0, a->depth, ATTACHMENT_STORE, true, NULL, &range))
            continue;
        /* the pass's own store operation is available to its final transition */
        struct hazard_memory_barrier t =
            hazard_barrier_over(&range, r->end_src_access | range.access, r->end_dst_access);
        hazard_image_transition(ld, cb, r->end_src_stages, r->end_dst_stages, &t, "vkCmdEndRenderPass");
    }
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
        command_attachment_access(ld, a->imageView, layers, depth, ATTACHMENT_LOAD,
                                  a->loadOp != VK_ATTACHMENT_LOAD_OP_LOAD, &cb->render_area, &loads->a[loads->count]))
        loads->count++;
    if (info->flags & VK_RENDERING_SUSPENDING_BIT)
        return;
    if (writable && (a->storeOp == VK_ATTACHMENT_STORE_OP_STORE || a->storeOp == VK_ATTACHMENT_STORE_OP_DONT_CARE) &&
        cb->rendering_store_count < MAX_ATTACHMENTS * 2 &&
        command_attachment_access(ld, a->imageView, layers, depth, ATTACHMENT_STORE, true, &cb->render_area,
                                  &cb->rendering_stores[cb->rendering_store_count]))
        cb->rendering_store_count++;
    if (a->resolveMode != VK_RESOLVE_MODE_NONE && a->resolveImageView != VK_NULL_HANDLE &&
        cb->rendering_store_count < MAX_ATTACHMENTS * 2 &&
        command_attachment_access(ld, a->resolveImageView, layers, depth, ATTACHMENT_RESOLVE, true, &cb->render_area,
                                  &cb->rendering_stores[cb->rendering_store_count]))
        cb->rendering_store_count++;
}

void hazard_rendering_begin(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info)
{
    /* the same view as depth and stencil is one attachment */
    bool separate_stencil =
        info->pStencilAttachment &&
        !(info->pDepthAttachment && info->pDepthAttachment->imageView == info->pStencilAttachment->imageView);
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
}

void hazard_rendering_end(struct layer_device *ld, struct command_buffer_state *cb)
{
    /* store and resolve operations: part of the rendering, after its load operations and draws */
    struct hazard_accesses stores = {.count = cb->rendering_store_count};
    memcpy(stores.a, cb->rendering_stores, stores.count * sizeof(stores.a[0]));
    hazard_command_at(ld, cb, &stores, "the store operations of the rendering begun by vkCmdBeginRendering",
                      cb->rendering_command);
}
