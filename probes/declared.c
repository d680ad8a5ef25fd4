#include "declared.h"

#include <stdlib.h>
#include <string.h>

#include "vk_json.h"

struct device_extensions {
    VkExtensionProperties *list;
    uint32_t count;
};

static bool has_device_extension(const struct device_extensions *exts, const char *name)
{
    for (uint32_t i = 0; i < exts->count; ++i)
        if (strcmp(exts->list[i].extensionName, name) == 0)
            return true;
    return false;
}

struct query_context {
    const struct vulkan_instance *vi;
    const struct device_extensions *extensions;
    uint32_t version;
};

static bool provided(const struct query_context *ctx, uint32_t core_version,
                     const struct vkjson_provider_ext *extensions)
{
    if (core_version != 0 && ctx->version >= core_version)
        return true;
    for (int i = 0; i < 4 && extensions[i].name != NULL; ++i) {
        if (extensions[i].instance ? vulkan_instance_extension_enabled(ctx->vi, extensions[i].name)
                                   : has_device_extension(ctx->extensions, extensions[i].name))
            return true;
    }
    return false;
}

/* A pNext chain of every struct in `table` that the device provides, each zeroed with its sType
 * set. `structs[i]` is NULL for the ones left out. */
struct query_chain {
    void **structs;
    void *head;
};

struct chained_header {
    VkStructureType sType;
    void *pNext;
};

static bool chain_build(struct query_chain *chain, const struct query_context *ctx,
                        const struct vkjson_chain_struct *table, size_t count, bool (*skip)(const char *))
{
    chain->head = NULL;
    chain->structs = calloc(count ? count : 1, sizeof(void *));
    if (chain->structs == NULL)
        return false;
    for (size_t i = count; i-- > 0;) {
        if (!provided(ctx, table[i].core_version, table[i].extensions) || (skip && skip(table[i].name)))
            continue;
        struct chained_header *s = calloc(1, table[i].size);
        if (s == NULL)
            return false;
        s->sType = table[i].stype;
        s->pNext = chain->head;
        chain->head = s;
        chain->structs[i] = s;
    }
    return true;
}

/* Chained output structs must be re-zeroed before the chain is reused for another query. */
static void chain_reset(struct query_chain *chain, const struct vkjson_chain_struct *table, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        struct chained_header *s = chain->structs[i];
        if (s == NULL)
            continue;
        void *next = s->pNext;
        memset(s, 0, table[i].size);
        s->sType = table[i].stype;
        s->pNext = next;
    }
}

static void chain_write(const struct query_chain *chain, const struct vkjson_chain_struct *table, size_t count,
                        cJSON *into)
{
    for (size_t i = 0; i < count; ++i)
        if (chain->structs[i] != NULL)
            cJSON_AddItemToObject(into, table[i].name, table[i].write(chain->structs[i]));
}

static void chain_free(struct query_chain *chain, size_t count)
{
    if (chain->structs == NULL)
        return;
    for (size_t i = 0; i < count; ++i)
        free(chain->structs[i]);
    free(chain->structs);
    chain->structs = NULL;
}

static bool use_properties2(const struct query_context *ctx)
{
    return ctx->version >= VK_API_VERSION_1_1 || ctx->vi->has_properties2_extension;
}

static PFN_vkGetPhysicalDeviceFeatures2 features2_function(const struct query_context *ctx)
{
    return ctx->version >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceFeatures2 ? vkGetPhysicalDeviceFeatures2
                                                                              : vkGetPhysicalDeviceFeatures2KHR;
}

static cJSON *build_extensions(const struct device_extensions *exts)
{
    cJSON *o = cJSON_CreateObject();
    for (uint32_t i = 0; i < exts->count; ++i)
        cJSON_AddNumberToObject(o, exts->list[i].extensionName, exts->list[i].specVersion);
    return o;
}

static cJSON *build_features(const struct query_context *ctx, VkPhysicalDevice device)
{
    cJSON *o = cJSON_CreateObject();
    if (!use_properties2(ctx) || features2_function(ctx) == NULL) {
        VkPhysicalDeviceFeatures features;
        vkGetPhysicalDeviceFeatures(device, &features);
        cJSON_AddItemToObject(o, "VkPhysicalDeviceFeatures", vkjson_VkPhysicalDeviceFeatures(&features));
        return o;
    }
    struct query_chain chain;
    if (chain_build(&chain, ctx, vkjson_features_structs, vkjson_features_struct_count, NULL)) {
        VkPhysicalDeviceFeatures2 features2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                               .pNext = chain.head};
        features2_function(ctx)(device, &features2);
        cJSON_AddItemToObject(o, "VkPhysicalDeviceFeatures", vkjson_VkPhysicalDeviceFeatures(&features2.features));
        chain_write(&chain, vkjson_features_structs, vkjson_features_struct_count, o);
    }
    chain_free(&chain, vkjson_features_struct_count);
    return o;
}

static cJSON *build_properties(const struct query_context *ctx, VkPhysicalDevice device)
{
    cJSON *o = cJSON_CreateObject();
    PFN_vkGetPhysicalDeviceProperties2 properties2_function =
        ctx->version >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceProperties2 ? vkGetPhysicalDeviceProperties2
                                                                             : vkGetPhysicalDeviceProperties2KHR;
    if (!use_properties2(ctx) || properties2_function == NULL) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(device, &properties);
        cJSON_AddItemToObject(o, "VkPhysicalDeviceProperties", vkjson_VkPhysicalDeviceProperties(&properties));
        return o;
    }
    struct query_chain chain;
    if (chain_build(&chain, ctx, vkjson_properties_structs, vkjson_properties_struct_count, NULL)) {
        VkPhysicalDeviceProperties2 properties2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                                   .pNext = chain.head};
        properties2_function(device, &properties2);
        cJSON_AddItemToObject(o, "VkPhysicalDeviceProperties",
                              vkjson_VkPhysicalDeviceProperties(&properties2.properties));
        chain_write(&chain, vkjson_properties_structs, vkjson_properties_struct_count, o);
    }
    chain_free(&chain, vkjson_properties_struct_count);
    return o;
}

/* The DRM modifier lists need caller-allocated arrays; they describe a platform detail, not a
 * capability the matrix compares, and vulkaninfo's capability block leaves them out too. */
static bool is_drm_modifier_list(const char *name)
{
    return strstr(name, "DrmFormatModifierPropertiesList") != NULL;
}

static bool format_properties_any(const VkFormatProperties *p)
{
    return p->linearTilingFeatures != 0 || p->optimalTilingFeatures != 0 || p->bufferFeatures != 0;
}

static cJSON *build_formats(const struct query_context *ctx, VkPhysicalDevice device)
{
    cJSON *o = cJSON_CreateObject();
    PFN_vkGetPhysicalDeviceFormatProperties2 format2_function =
        ctx->version >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceFormatProperties2
            ? vkGetPhysicalDeviceFormatProperties2
            : vkGetPhysicalDeviceFormatProperties2KHR;
    bool chained = use_properties2(ctx) && format2_function != NULL;
    struct query_chain chain = {0};
    if (chained && !chain_build(&chain, ctx, vkjson_format_structs, vkjson_format_struct_count, is_drm_modifier_list))
        chained = false;
    for (size_t i = 0; i < vkjson_format_count; ++i) {
        const struct vkjson_format *f = &vkjson_formats[i];
        if (!provided(ctx, f->core_version, f->extensions))
            continue;
        VkFormatProperties2 properties2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = chain.head};
        if (chained) {
            chain_reset(&chain, vkjson_format_structs, vkjson_format_struct_count);
            format2_function(device, f->format, &properties2);
        } else {
            vkGetPhysicalDeviceFormatProperties(device, f->format, &properties2.formatProperties);
        }
        if (!format_properties_any(&properties2.formatProperties))
            continue;
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddItemToObject(entry, "VkFormatProperties", vkjson_VkFormatProperties(&properties2.formatProperties));
        if (chained)
            chain_write(&chain, vkjson_format_structs, vkjson_format_struct_count, entry);
        cJSON_AddItemToObject(o, f->name, entry);
    }
    chain_free(&chain, vkjson_format_struct_count);
    return o;
}

static cJSON *build_queue_families(const struct query_context *ctx, VkPhysicalDevice device)
{
    cJSON *a = cJSON_CreateArray();
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, NULL);
    PFN_vkGetPhysicalDeviceQueueFamilyProperties2 families2_function =
        ctx->version >= VK_API_VERSION_1_1 && vkGetPhysicalDeviceQueueFamilyProperties2
            ? vkGetPhysicalDeviceQueueFamilyProperties2
            : vkGetPhysicalDeviceQueueFamilyProperties2KHR;
    if (count == 0)
        return a;
    if (!use_properties2(ctx) || families2_function == NULL) {
        VkQueueFamilyProperties *families = calloc(count, sizeof(*families));
        if (families == NULL)
            return a;
        vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families);
        for (uint32_t i = 0; i < count; ++i) {
            cJSON *entry = cJSON_CreateObject();
            cJSON_AddItemToObject(entry, "VkQueueFamilyProperties", vkjson_VkQueueFamilyProperties(&families[i]));
            cJSON_AddItemToArray(a, entry);
        }
        free(families);
        return a;
    }
    VkQueueFamilyProperties2 *families = calloc(count, sizeof(*families));
    struct query_chain *chains = calloc(count, sizeof(*chains));
    bool ok = families != NULL && chains != NULL;
    for (uint32_t i = 0; ok && i < count; ++i) {
        ok = chain_build(&chains[i], ctx, vkjson_queue_family_structs, vkjson_queue_family_struct_count, NULL);
        families[i].sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2;
        families[i].pNext = chains[i].head;
    }
    if (ok) {
        families2_function(device, &count, families);
        for (uint32_t i = 0; i < count; ++i) {
            cJSON *entry = cJSON_CreateObject();
            cJSON_AddItemToObject(entry, "VkQueueFamilyProperties",
                                  vkjson_VkQueueFamilyProperties(&families[i].queueFamilyProperties));
            chain_write(&chains[i], vkjson_queue_family_structs, vkjson_queue_family_struct_count, entry);
            cJSON_AddItemToArray(a, entry);
        }
    }
    for (uint32_t i = 0; chains != NULL && i < count; ++i)
        chain_free(&chains[i], vkjson_queue_family_struct_count);
    free(chains);
    free(families);
    return a;
}

static cJSON *build_fragment_shading_rates(VkPhysicalDevice device)
{
    cJSON *a = cJSON_CreateArray();
    if (vkGetPhysicalDeviceFragmentShadingRatesKHR == NULL)
        return a;
    uint32_t count = 0;
    if (vkGetPhysicalDeviceFragmentShadingRatesKHR(device, &count, NULL) != VK_SUCCESS || count == 0)
        return a;
    VkPhysicalDeviceFragmentShadingRateKHR *rates = calloc(count, sizeof(*rates));
    if (rates == NULL)
        return a;
    for (uint32_t i = 0; i < count; ++i)
        rates[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_KHR;
    VkResult result = vkGetPhysicalDeviceFragmentShadingRatesKHR(device, &count, rates);
    if (result == VK_SUCCESS || result == VK_INCOMPLETE) {
        for (uint32_t i = 0; i < count; ++i)
            cJSON_AddItemToArray(a, vkjson_VkPhysicalDeviceFragmentShadingRateKHR(&rates[i]));
    }
    free(rates);
    return a;
}

cJSON *declared_build(const struct vulkan_instance *vi, VkPhysicalDevice device)
{
    struct device_extensions exts = {0};
    if (vkEnumerateDeviceExtensionProperties(device, NULL, &exts.count, NULL) == VK_SUCCESS && exts.count > 0) {
        exts.list = calloc(exts.count, sizeof(*exts.list));
        if (exts.list == NULL ||
            vkEnumerateDeviceExtensionProperties(device, NULL, &exts.count, exts.list) != VK_SUCCESS)
            exts.count = 0;
    }
    struct query_context ctx = {.vi = vi, .extensions = &exts, .version = vulkan_effective_version(vi, device)};

    cJSON *declared = cJSON_CreateObject();
    cJSON_AddItemToObject(declared, "extensions", build_extensions(&exts));
    cJSON_AddItemToObject(declared, "features", build_features(&ctx, device));
    cJSON_AddItemToObject(declared, "properties", build_properties(&ctx, device));
    cJSON_AddItemToObject(declared, "formats", build_formats(&ctx, device));
    cJSON_AddItemToObject(declared, "queueFamiliesProperties", build_queue_families(&ctx, device));
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(device, &memory);
    cJSON_AddItemToObject(declared, "memoryProperties", vkjson_VkPhysicalDeviceMemoryProperties(&memory));
    cJSON_AddItemToObject(declared, "fragmentShadingRates",
                          has_device_extension(&exts, VK_KHR_FRAGMENT_SHADING_RATE_EXTENSION_NAME)
                              ? build_fragment_shading_rates(device)
                              : cJSON_CreateArray());
    free(exts.list);
    return declared;
}
