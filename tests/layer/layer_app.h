/* What layer_app.c shares with its scenario files: the application, buffers, recordings. */
#ifndef PREFLIGHT_TESTS_LAYER_APP_H
#define PREFLIGHT_TESTS_LAYER_APP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <vulkan/vulkan.h>

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        VkResult r_ = (call);                                                                                          \
        if (r_ != VK_SUCCESS) {                                                                                        \
            fprintf(stderr, "%s failed: %d\n", #call, r_);                                                             \
            exit(3);                                                                                                   \
        }                                                                                                              \
    } while (0)

struct app {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    VkQueue queue2; /* a second queue of the family, VK_NULL_HANDLE when it has one */
    bool timeline;  /* timeline semaphores enabled */
    bool dynamic_rendering;
    bool fragment_stores;   /* fragmentStoresAndAtomics enabled */
    bool headless;          /* VK_EXT_headless_surface and VK_KHR_swapchain enabled: swapchains without a window */
    bool update_after_bind; /* descriptorBindingStorageBufferUpdateAfterBind enabled */
    uint32_t family;
    VkPhysicalDeviceProperties properties;
    VkDebugUtilsMessengerEXT messenger;
    PFN_vkSetDebugUtilsObjectNameEXT set_name;
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label;
    PFN_vkCmdEndDebugUtilsLabelEXT end_label;
};

struct buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
};

struct recording {
    VkCommandPool pool;
    VkCommandBuffer cb;
};

uint32_t memory_type(struct app *a, uint32_t bits, VkMemoryPropertyFlags wanted);
/* A host-visible, coherent, mapped and zeroed buffer with its own memory. */
struct buffer make_buffer(struct app *a, VkDeviceSize size, VkBufferUsageFlags usage);
void free_buffer(struct app *a, struct buffer *b);
/* A new pool and primary command buffer (named `name`), begun. */
struct recording begin(struct app *a, const char *name);
void label(struct app *a, VkCommandBuffer cb, const char *text);
/* Ends, optionally submits and waits, then frees the recording. */
void finish(struct app *a, struct recording *r, bool submit);

/* The scenarios of each area, by name; false for a name not theirs: alias and binding
 * (layer_app_alias.c), hazard (layer_app_hazard.c), host (layer_app_host.c). */
bool scenarios_alias(struct app *a, const char *name);
bool scenarios_hazard(struct app *a, const char *name);
bool scenarios_host(struct app *a, const char *name);
/* The hostile scenarios (layer_app_hostile.c): what a buggy application passes. */
bool scenarios_hostile(struct app *a, const char *name);
/* The exactness scenarios (layer_app_exact.c): hazards judged on the memory operations may access. */
bool scenarios_exact(struct app *a, const char *name);
/* The lifetime and dispatch-coverage scenarios (layer_app_lifetime.c); false for an unknown name. */
bool scenario_lifetime(struct app *a, const char *name);

#endif
