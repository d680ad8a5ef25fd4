/* What each descriptor of a set names, after every way of writing it: vkUpdateDescriptorSets'
 * writes and copies, update templates (raw application memory at offsets and strides) and push
 * descriptors. State only: the hooks call the checks. Every count, element and offset comes from
 * the application and is bounded here by the set's layout: a write that runs past the set's last
 * descriptor stops there, and template data is read only at the places its entries name, for the
 * descriptors the set has. */
#ifndef PREFLIGHT_LAYER_DESCRIPTOR_WRITES_H
#define PREFLIGHT_LAYER_DESCRIPTOR_WRITES_H

#include "state_descriptors.h"
#include "state_device.h"

/* More descriptors in one layout than the layer keeps state for (about 90 bytes each): a layout
 * beyond it is not tracked, and neither are its sets. */
#define DESCRIPTORS_TRACKED_MAX (1u << 22)

/* The layout's bindings in binding-number order with where each one's descriptors start; NULL
 * when out of memory or beyond DESCRIPTORS_TRACKED_MAX. */
struct set_layout_state *descriptor_set_layout_create(const VkDescriptorSetLayoutCreateInfo *info);
/* A new set of `layout` (retained), every descriptor unwritten; NULL when out of memory. */
struct set_state *descriptor_set_create(struct set_layout_state *layout, VkDescriptorSet handle, VkDescriptorPool pool);
void descriptor_write_apply(struct layer_device *ld, struct set_state *set, const VkWriteDescriptorSet *write);
void descriptor_copy_apply(struct set_state *from, struct set_state *to, const VkCopyDescriptorSet *copy);
void descriptor_template_apply(struct layer_device *ld, struct set_state *set, const struct update_template_state *t,
                               const void *data);

#endif
