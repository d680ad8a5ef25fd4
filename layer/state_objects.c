/* The kinds of objects of LAYER_OBJECT_KINDS: their maps, object types and releases. */
#include "state_objects.h"

#include <stdlib.h>

#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_pipelines.h"
#include "state_resources.h"
#include "state_device.h"

/* The releases of the kinds whose states own more than themselves and are not shared. */
static void render_pass_state_free(struct render_pass_state *r)
{
    if (r != NULL) {
        free(r->subpasses);
        free(r->attachments);
        free(r->dependencies);
        free(r);
    }
}

static void swapchain_state_free(struct swapchain_state *s)
{
    if (s != NULL)
        free(s->images);
    free(s);
}

static void command_pool_state_free(struct command_pool_state *p)
{
    if (p != NULL)
        free(p->buffers);
    free(p);
}

static void descriptor_pool_state_free(struct descriptor_pool_state *p)
{
    if (p != NULL)
        free(p->sets);
    free(p);
}

static void update_template_state_free(struct update_template_state *t)
{
    if (t != NULL)
        free(t->entries);
    free(t);
}

static void shader_module_state_free(struct shader_module_state *m)
{
    if (m != NULL)
        free(m->code);
    free(m);
}

#define OBJECT_RELEASE(kind, type, state, release)                                                                     \
    static void release_##kind(void *s)                                                                                \
    {                                                                                                                  \
        release((struct state *)s);                                                                                    \
    }
LAYER_OBJECT_KINDS(OBJECT_RELEASE)
#undef OBJECT_RELEASE

#define OBJECT_ENTRY(kind, type, state, release) {type, release_##kind},
static const struct {
    VkObjectType type;
    void (*release)(void *state);
} object_kinds[OBJECT_KIND_COUNT] = {LAYER_OBJECT_KINDS(OBJECT_ENTRY)};
#undef OBJECT_ENTRY

void layer_objects_init(struct layer_device *ld)
{
    for (int kind = 0; kind < OBJECT_KIND_COUNT; ++kind)
        handle_map_init(&ld->objects[kind]);
}

void layer_objects_free(struct layer_device *ld)
{
    for (int kind = 0; kind < OBJECT_KIND_COUNT; ++kind)
        handle_map_destroy(&ld->objects[kind], object_kinds[kind].release);
}

VkObjectType layer_object_type(enum layer_object_kind kind)
{
    return object_kinds[kind].type;
}

void layer_object_release(enum layer_object_kind kind, void *state)
{
    if (state != NULL)
        object_kinds[kind].release(state);
}
