/* DRM hwmon: the kernel's power sensors of a GPU, under /sys/class/drm/card<N>/device/hwmon/.
 * energy<K>_input is a counter in microjoules (i915, xe, some amdgpu and Arm SoC drivers);
 * power<K>_average and power<K>_input are readings in microwatts (amdgpu). A counter is preferred
 * (labelled "card" where the driver labels several, as xe does), then an average, then an
 * instantaneous reading. The card is matched by the PCI address in its device/uevent. */
#include "power_source.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct hwmon {
    char value_path[PATH_MAX];
    char watts_path[PATH_MAX]; /* a power reading beside an energy counter; "" if none */
    double scale;              /* to joules or watts */
};

/* "a/b" into a PATH_MAX buffer; false when it does not fit (then nothing is opened there). */
static bool join(char *out, const char *a, const char *b)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", a, b);
    return n >= 0 && n < PATH_MAX;
}

const char *power_hwmon_root(void)
{
    const char *root = getenv("PREFLIGHT_HWMON_ROOT");
    return root != NULL && root[0] != '\0' ? root : "/sys/class/drm";
}

void power_pci_name(const struct power_device_id *id, char *out, size_t size)
{
    snprintf(out, size, "%04x:%02x:%02x.%x", id->pci_domain, id->pci_bus, id->pci_device, id->pci_function);
}

/* The first line of a sysfs file as an unsigned number. */
static bool read_number(const char *path, unsigned long long *value, char *error, size_t size)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(error, size, "%s could not be read: %s", path, strerror(errno));
        return false;
    }
    char line[64] = "";
    bool got = fgets(line, sizeof(line), f) != NULL;
    fclose(f);
    char *end = NULL;
    errno = 0;
    *value = got ? strtoull(line, &end, 10) : 0;
    if (!got || errno != 0 || end == line || (*end != '\n' && *end != '\0')) {
        snprintf(error, size, "%s holds no number", path);
        return false;
    }
    return true;
}

static bool read_value(struct power_source *s, double *value, char *error, size_t size)
{
    struct hwmon *h = s->state;
    unsigned long long raw;
    if (!read_number(h->value_path, &raw, error, size))
        return false;
    *value = (double)raw * h->scale;
    return true;
}

static bool read_watts(struct power_source *s, double *watts, char *error, size_t size)
{
    struct hwmon *h = s->state;
    unsigned long long microwatts;
    if (!read_number(h->watts_path, &microwatts, error, size))
        return false;
    *watts = (double)microwatts / 1e6;
    return true;
}

static void close_hwmon(struct power_source *s)
{
    free(s->state);
    s->state = NULL;
}

/* PCI_SLOT_NAME from card<N>/device/uevent, or "" */
static void card_pci(const char *root, const char *card, char *out, size_t size)
{
    char dir[PATH_MAX], path[PATH_MAX];
    out[0] = '\0';
    FILE *f = join(dir, root, card) && join(path, dir, "device/uevent") ? fopen(path, "r") : NULL;
    if (f == NULL)
        return;
    char line[256];
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "PCI_SLOT_NAME=", 14) == 0) {
            snprintf(out, size, "%.*s", (int)strcspn(line + 14, "\r\n"), line + 14);
            break;
        }
    }
    fclose(f);
}

static bool is_card(const char *name)
{
    unsigned n;
    int length = 0;
    return sscanf(name, "card%u%n", &n, &length) == 1 && name[length] == '\0';
}

/* The sensors of one hwmon directory, by preference: rank 0 an energy counter labelled "card",
 * 1 another energy counter, 2 an average power, 3 an instantaneous power; lower index first. */
struct choice {
    int rank;
    unsigned index;
    char path[PATH_MAX];
    char watts[PATH_MAX];
    int watts_rank;
};

static bool label_is_card(const char *dir, unsigned index)
{
    char name[32], path[PATH_MAX], label[32] = "";
    snprintf(name, sizeof(name), "energy%u_label", index);
    FILE *f = join(path, dir, name) ? fopen(path, "r") : NULL;
    if (f == NULL)
        return false;
    bool card = fgets(label, sizeof(label), f) != NULL && strncmp(label, "card", 4) == 0;
    fclose(f);
    return card;
}

static void consider(const char *dir, const char *file, struct choice *best)
{
    unsigned index;
    int length = 0;
    int rank = -1;
    if (sscanf(file, "energy%u_input%n", &index, &length) == 1 && file[length] == '\0')
        rank = label_is_card(dir, index) ? 0 : 1;
    else if (sscanf(file, "power%u_average%n", &index, &length) == 1 && file[length] == '\0')
        rank = 2;
    else if (sscanf(file, "power%u_input%n", &index, &length) == 1 && file[length] == '\0')
        rank = 3;
    if (rank < 0)
        return;
    char path[PATH_MAX];
    if (!join(path, dir, file))
        return;
    if (rank >= 2 && (best->watts_rank < 0 || rank < best->watts_rank)) {
        best->watts_rank = rank;
        memcpy(best->watts, path, sizeof(path));
    }
    if (best->rank < 0 || rank < best->rank || (rank == best->rank && index < best->index)) {
        best->rank = rank;
        best->index = index;
        memcpy(best->path, path, sizeof(path));
    }
}

static void choose_sensor(const char *hwmon_dir, struct choice *best)
{
    DIR *d = opendir(hwmon_dir);
    if (d == NULL)
        return;
    struct dirent *monitor;
    while ((monitor = readdir(d)) != NULL) {
        if (strncmp(monitor->d_name, "hwmon", 5) != 0)
            continue;
        char dir[PATH_MAX];
        DIR *sensors = join(dir, hwmon_dir, monitor->d_name) ? opendir(dir) : NULL;
        if (sensors == NULL)
            continue;
        struct dirent *file;
        while ((file = readdir(sensors)) != NULL)
            consider(dir, file->d_name, best);
        closedir(sensors);
    }
    closedir(d);
}

bool hwmon_source_open(struct power_source *s, const struct power_device_id *id, char *reason, size_t size)
{
    const char *root = power_hwmon_root();
    if (!id->has_pci) {
        snprintf(reason, size,
                 "hwmon: the device has no PCI address (VK_EXT_pci_bus_info not exposed: a software or non-PCI "
                 "device), so no DRM hwmon sensor under %s can be matched to it",
                 root);
        return false;
    }
    char pci[32];
    power_pci_name(id, pci, sizeof(pci));
    DIR *d = opendir(root);
    if (d == NULL) {
        snprintf(reason, size, "hwmon: %s cannot be listed (%s)", root, strerror(errno));
        return false;
    }
    char card[sizeof(((struct dirent *)0)->d_name)] = "";
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        char slot[32];
        if (!is_card(entry->d_name))
            continue;
        card_pci(root, entry->d_name, slot, sizeof(slot));
        if (strcasecmp(slot, pci) == 0) {
            memcpy(card, entry->d_name, sizeof(card));
            break;
        }
    }
    closedir(d);
    if (card[0] == '\0') {
        snprintf(reason, size, "hwmon: no %s/card*/device/uevent names PCI %s", root, pci);
        return false;
    }
    char card_dir[PATH_MAX], hwmon_dir[PATH_MAX];
    struct choice best = {.rank = -1, .watts_rank = -1};
    if (join(card_dir, root, card) && join(hwmon_dir, card_dir, "device/hwmon"))
        choose_sensor(hwmon_dir, &best);
    if (best.rank < 0) {
        snprintf(reason, size, "hwmon: %s (PCI %s) has no energy*_input, power*_average or power*_input sensor", card,
                 pci);
        return false;
    }
    struct hwmon *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        snprintf(reason, size, "hwmon: out of memory");
        return false;
    }
    bool energy = best.rank <= 1;
    memcpy(h->value_path, best.path, sizeof(best.path));
    if (energy)
        memcpy(h->watts_path, best.watts, sizeof(best.watts));
    h->scale = 1e-6; /* microjoules, or microwatts */
    *s = (struct power_source){
        .name = "hwmon",
        .quantity = energy ? POWER_ENERGY_JOULES : POWER_WATTS,
        .read = read_value,
        .read_watts = energy && best.watts[0] ? read_watts : NULL,
        .close = close_hwmon,
        .state = h,
    };
    snprintf(s->device_match, sizeof(s->device_match), "PCI %s (%s)", pci, card);
    snprintf(s->sensor, sizeof(s->sensor), "%.*s", (int)sizeof(s->sensor) - 1, best.path);
    double probe;
    char why[PATH_MAX + 64];
    if (!read_value(s, &probe, why, sizeof(why))) {
        snprintf(reason, size, "hwmon: %s", why);
        close_hwmon(s);
        return false;
    }
    return true;
}
