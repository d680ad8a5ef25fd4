#include "upload.h"

#include "output_file.h"

#include <curl/curl.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json_file.h"
#include "report_artifacts.h"
#include "report_model.h"
#include "report_read.h"
#include "sha256.h"

static size_t discard_body(char *data, size_t size, size_t count, void *user)
{
    (void)data;
    (void)user;
    return size * count;
}

double upload_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

bool upload_url_valid(const char *url, char *error, size_t size)
{
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
        snprintf(error, size, "--url must start with http:// or https://");
        return false;
    }
    CURLU *u = curl_url();
    CURLUcode code = u ? curl_url_set(u, CURLUPART_URL, url, 0) : CURLUE_OUT_OF_MEMORY;
    char *host = NULL;
    if (code == CURLUE_OK)
        code = curl_url_get(u, CURLUPART_HOST, &host, 0);
    bool ok = code == CURLUE_OK && host != NULL && host[0] != '\0';
    if (!ok)
        snprintf(error, size, "--url is not a valid URL (%s)", u ? curl_url_strerror(code) : "out of memory");
    curl_free(host);
    curl_url_cleanup(u);
    return ok;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

/* What one request sends: the report (POST to the URL) or one of its artifacts (PUT below it). */
struct request {
    const char *url, *method, *content_type;
    const char *body;
    size_t length;
    const char *key; /* Idempotency-Key, or NULL */
};

/* One attempt: the HTTP status, or 0 with curl's error in `code`. */
static long attempt(const struct upload_options *o, const struct request *q, CURLcode *code)
{
    CURL *curl = curl_easy_init();
    if (curl == NULL) {
        *code = CURLE_FAILED_INIT;
        return 0;
    }
    char type_header[128], key_header[128], auth_header[4200];
    snprintf(type_header, sizeof(type_header), "Content-Type: %s", q->content_type);
    struct curl_slist *headers = NULL;
    headers = curl_slist_append(headers, type_header);
    if (q->key != NULL) {
        snprintf(key_header, sizeof(key_header), "Idempotency-Key: %s", q->key);
        headers = curl_slist_append(headers, key_header);
    }
    headers = curl_slist_append(headers, "Expect:");
    if (o->token != NULL) {
        snprintf(auth_header, sizeof(auth_header), "Authorization: Bearer %s", o->token);
        headers = curl_slist_append(headers, auth_header);
    }
    long timeout_ms = (long)(o->timeout_seconds * 1000);
    curl_easy_setopt(curl, CURLOPT_URL, q->url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, q->method);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, q->body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)q->length);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "preflight-report/0.1.0");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms < 10000 ? timeout_ms : 10000L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L); /* a redirect must not carry the token elsewhere */
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (o->ca_file != NULL)
        curl_easy_setopt(curl, CURLOPT_CAINFO, o->ca_file);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard_body);
    *code = curl_easy_perform(curl);
    long status = 0;
    if (*code == CURLE_OK)
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    memset(auth_header, 0, sizeof(auth_header));
    curl_easy_cleanup(curl);
    return status;
}

static bool retryable_status(long status)
{
    return status == 408 || status == 429 || status >= 500;
}

static bool retryable_error(CURLcode code)
{
    /* Certificate and protocol problems will not fix themselves by waiting. */
    return code != CURLE_PEER_FAILED_VERIFICATION && code != CURLE_SSL_CACERT_BADFILE &&
           code != CURLE_UNSUPPORTED_PROTOCOL && code != CURLE_URL_MALFORMAT;
}

static enum upload_outcome send_with_retries(const struct upload_options *o, const struct request *q, char *message,
                                             size_t size)
{
    long delay = o->backoff_ms;
    for (int try = 0; try <= o->retries; ++try) {
        if (try > 0) {
            if (o->deadline_ms > 0 && upload_now_ms() + (double)delay >= o->deadline_ms) {
                size_t at = strlen(message);
                snprintf(message + at, size - at, "; the --deadline passed, no further attempt");
                return UPLOAD_FAILED;
            }
            if (o->progress)
                fprintf(stderr, "  attempt %d of %d: %s; retrying in %.1f s\n", try, o->retries + 1, message,
                        (double)delay / 1000.0);
            sleep_ms(delay);
            delay = delay * 2 < UPLOAD_MAX_BACKOFF_MS ? delay * 2 : UPLOAD_MAX_BACKOFF_MS;
        }
        CURLcode code;
        long status = attempt(o, q, &code);
        if (code == CURLE_OK && status >= 200 && status < 300) {
            snprintf(message, size, "delivered (HTTP %ld, attempt %d)", status, try + 1);
            return UPLOAD_DELIVERED;
        }
        if (code == CURLE_OK && status == 409) {
            snprintf(message, size, "already delivered (HTTP 409, attempt %d)", try + 1);
            return UPLOAD_ALREADY_THERE;
        }
        if (code == CURLE_OK && (status == 401 || status == 403)) {
            snprintf(message, size, "the server refused the token (HTTP %ld); not retried", status);
            return UPLOAD_REFUSED;
        }
        if (code == CURLE_OK && !retryable_status(status)) {
            snprintf(message, size, "the server refused %s (HTTP %ld); not retried",
                     q->key ? "the report" : "the artifact", status);
            return UPLOAD_REFUSED;
        }
        if (code != CURLE_OK)
            snprintf(message, size, "%s after %d attempt(s)", curl_easy_strerror(code), try + 1);
        else
            snprintf(message, size, "HTTP %ld after %d attempt(s)", status, try + 1);
        if (code != CURLE_OK && !retryable_error(code))
            return UPLOAD_FAILED;
    }
    return UPLOAD_FAILED;
}

enum upload_outcome upload_send(const struct upload_options *o, const char *body, size_t length, const char *key,
                                char *message, size_t size)
{
    const struct request q = {o->url, "POST", "application/json", body, length, key};
    return send_with_retries(o, &q, message, size);
}

enum upload_outcome upload_send_artifacts(const struct upload_options *o, const cJSON *report, const char *key,
                                          const char *dir, char *message, size_t size)
{
    struct report_artifact *named = calloc(REPORT_ARTIFACTS_MAX, sizeof(*named));
    if (named == NULL) {
        snprintf(message, size, "out of memory");
        return UPLOAD_FAILED;
    }
    size_t count = report_artifacts_of(report, named, REPORT_ARTIFACTS_MAX);
    int sent = 0, missing = 0, refused = 0, failed = 0;
    char detail[1024], why[4600];
    for (size_t i = 0; i < count; ++i) {
        size_t length = 0;
        char *data = report_artifact_read(dir, &named[i], &length, why, sizeof(why));
        if (data == NULL) {
            ++missing;
            if (why[0])
                fprintf(stderr, "  artifact %s\n", why);
            continue;
        }
        char url[8400];
        snprintf(url, sizeof(url), "%s/%s/artifacts/%s", o->url, key, named[i].sha256);
        const struct request q = {url, "PUT", "image/png", data, length, NULL};
        enum upload_outcome outcome = send_with_retries(o, &q, detail, sizeof(detail));
        free(data);
        sent += outcome == UPLOAD_DELIVERED || outcome == UPLOAD_ALREADY_THERE;
        refused += outcome == UPLOAD_REFUSED;
        failed += outcome == UPLOAD_FAILED;
        if (outcome == UPLOAD_REFUSED || outcome == UPLOAD_FAILED)
            fprintf(stderr, "  artifact %s: %s\n", named[i].file, detail);
    }
    free(named);
    snprintf(message, size, "%d of %zu artifacts sent", sent, count);
    if (missing)
        snprintf(message + strlen(message), size - strlen(message), ", %d not found in %s", missing, dir);
    if (refused)
        snprintf(message + strlen(message), size - strlen(message), ", %d refused", refused);
    if (failed)
        snprintf(message + strlen(message), size - strlen(message), ", %d not delivered", failed);
    return failed ? UPLOAD_FAILED : UPLOAD_DELIVERED;
}

static bool make_directories(const char *path)
{
    char buffer[4096];
    snprintf(buffer, sizeof(buffer), "%s", path);
    for (char *c = buffer + 1; *c; ++c) {
        if (*c != '/')
            continue;
        *c = '\0';
        if (mkdir(buffer, 0700) != 0 && errno != EEXIST)
            return false;
        *c = '/';
    }
    return mkdir(buffer, 0700) == 0 || errno == EEXIST;
}

static bool write_whole(const char *path, const char *body, size_t length, char *error, size_t size)
{
    struct output_file out; /* a unique temporary: two uploads of one report never share it */
    if (!output_open(&out, path, error, size))
        return false;
    if (fwrite(body, 1, length, out.file) != length) {
        snprintf(error, size, "cannot write %s: %s", path, strerror(errno));
        output_abandon(&out);
        return false;
    }
    return output_commit(&out, error, size);
}

bool spool_store(const char *dir, const char *key, const char *body, size_t length, char *error, size_t size)
{
    if (!make_directories(dir)) {
        snprintf(error, size, "cannot create the spool directory %s: %s", dir, strerror(errno));
        return false;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s.json", dir, key);
    return write_whole(path, body, length, error, size);
}

int spool_store_artifacts(const char *dir, const char *key, const cJSON *report, const char *from, char *error,
                          size_t size)
{
    struct report_artifact *named = calloc(REPORT_ARTIFACTS_MAX, sizeof(*named));
    if (named == NULL) {
        snprintf(error, size, "out of memory");
        return -1;
    }
    size_t count = report_artifacts_of(report, named, REPORT_ARTIFACTS_MAX);
    char folder[4200], path[4500], why[4600];
    snprintf(folder, sizeof(folder), "%s/%s.artifacts", dir, key);
    int kept = 0;
    for (size_t i = 0; i < count && kept >= 0; ++i) {
        size_t length = 0;
        char *data = report_artifact_read(from, &named[i], &length, why, sizeof(why));
        if (data == NULL)
            continue; /* not there, or not what the report names: nothing to keep */
        snprintf(path, sizeof(path), "%s/%s", folder, named[i].file);
        if (!make_directories(folder)) {
            snprintf(error, size, "cannot create %s: %s", folder, strerror(errno));
            kept = -1;
        } else if (!write_whole(path, data, length, error, size)) {
            kept = -1;
        } else {
            ++kept;
        }
        free(data);
    }
    free(named);
    return kept;
}

/* Removes a spooled report's artifacts folder and what is in it. */
static void drop_artifacts(const char *dir, const char *key)
{
    char folder[4200], path[4500];
    snprintf(folder, sizeof(folder), "%s/%.64s.artifacts", dir, key);
    DIR *d = opendir(folder);
    if (d == NULL)
        return;
    struct dirent *entry;
    while ((entry = readdir(d)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", folder, entry->d_name);
        remove(path);
    }
    closedir(d);
    rmdir(folder);
}

/* A spooled report's bytes; NULL when it cannot be read (reported with its name). */
static char *read_spooled(const char *path, size_t *length)
{
    char error[512];
    char *text = json_file_read(path, JSON_FILE_MAX_BYTES, length, error, sizeof(error));
    if (text == NULL)
        fprintf(stderr, "%s\n", error);
    return text;
}

int spool_flush(const struct upload_options *o, int *delivered)
{
    *delivered = 0;
    DIR *dir = opendir(o->spool_dir);
    if (dir == NULL)
        return 0; /* nothing was ever spooled */
    int remaining = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        size_t name_length = strlen(entry->d_name);
        if (name_length != 64 + 5 || strcmp(entry->d_name + 64, ".json") != 0)
            continue; /* only <sha256>.json; *.partial are interrupted writes */
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", o->spool_dir, entry->d_name);
        size_t length = 0;
        char *body = read_spooled(path, &length);
        if (body == NULL) {
            ++remaining;
            continue;
        }
        char key[65], message[1024];
        sha256_hex(body, length, key);
        /* only what was spooled, unchanged: its name is its hash, and it is still a valid report */
        cJSON *report = NULL;
        if (strncmp(key, entry->d_name, 64) != 0) {
            fprintf(stderr,
                    "%s: its content does not match its name (changed since it was spooled); not sent "
                    "(upload --spool-drop %.64s)\n",
                    entry->d_name, entry->d_name);
        } else if ((report = report_parse(body, length, entry->d_name, message, sizeof(message))) == NULL) {
            fprintf(stderr, "%s; not sent (upload --spool-drop %.64s)\n", message, entry->d_name);
        }
        if (report == NULL) {
            free(body);
            ++remaining;
            continue;
        }
        enum upload_outcome outcome = upload_send(o, body, length, key, message, sizeof(message));
        free(body);
        fprintf(stderr, "%s: %s\n", entry->d_name, message);
        char folder[4200];
        snprintf(folder, sizeof(folder), "%s/%s.artifacts", o->spool_dir, key);
        struct stat st;
        if ((outcome == UPLOAD_DELIVERED || outcome == UPLOAD_ALREADY_THERE) && stat(folder, &st) == 0) {
            /* the report is there now: its images follow, from the spool */
            outcome = upload_send_artifacts(o, report, key, folder, message, sizeof(message));
            fprintf(stderr, "%s: %s\n", entry->d_name, message);
        }
        cJSON_Delete(report);
        if (outcome == UPLOAD_FAILED || outcome == UPLOAD_REFUSED) {
            ++remaining;
        } else if (remove(path) == 0) {
            drop_artifacts(o->spool_dir, key);
            ++*delivered;
        }
    }
    closedir(dir);
    return remaining;
}

static bool spooled_name(const char *name)
{
    return strlen(name) == 64 + 5 && strcmp(name + 64, ".json") == 0;
}

int spool_list(const char *dir_path)
{
    DIR *dir = opendir(dir_path);
    if (dir == NULL)
        return 0;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (!spooled_name(entry->d_name))
            continue;
        char path[4200], date[32] = "?", devices[512] = "";
        snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
        struct stat st;
        long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
        if (bytes >= 0)
            strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&st.st_mtime));
        size_t length = 0;
        char *body = read_spooled(path, &length), error[256];
        cJSON *report = body ? report_parse(body, length, entry->d_name, error, sizeof(error)) : NULL;
        const cJSON *device;
        size_t at = 0;
        REPORT_FOR_EACH_DEVICE(device, report)
        {
            const char *name = report_device_key(device);
            if (name[0] != '\0' && at < sizeof(devices))
                at += (size_t)snprintf(devices + at, sizeof(devices) - at, "%s%s", at ? "," : "", name);
        }
        printf("%.64s %10lld bytes  %s  %s\n", entry->d_name, bytes, date, report ? devices : "(not a valid report)");
        cJSON_Delete(report);
        free(body);
        ++count;
    }
    closedir(dir);
    return count;
}

bool spool_drop(const char *dir_path, const char *key, int *dropped, char *error, size_t size)
{
    *dropped = 0;
    bool all = strcmp(key, "all") == 0;
    if (!all && (strlen(key) != 64 || strspn(key, "0123456789abcdef") != 64)) {
        snprintf(error, size, "'%.80s' is not a spooled report's key (64 hex digits, as --spool-list shows) or 'all'",
                 key);
        return false;
    }
    DIR *dir = opendir(dir_path);
    if (dir != NULL) {
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL) {
            if (!spooled_name(entry->d_name) || (!all && strncmp(entry->d_name, key, 64) != 0))
                continue;
            char path[4200];
            snprintf(path, sizeof(path), "%s/%s", dir_path, entry->d_name);
            if (remove(path) == 0)
                ++*dropped;
            drop_artifacts(dir_path, entry->d_name);
        }
        closedir(dir);
    }
    if (!all && *dropped == 0) {
        snprintf(error, size, "no spooled report %s in %s", key, dir_path);
        return false;
    }
    return true;
}

void spool_default_dir(char *out, size_t size)
{
    const char *explicit_dir = getenv("PREFLIGHT_SPOOL");
    const char *cache = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (explicit_dir && *explicit_dir)
        snprintf(out, size, "%s", explicit_dir);
    else if (cache && *cache)
        snprintf(out, size, "%s/preflight/spool", cache);
    else
        snprintf(out, size, "%s/.cache/preflight/spool", home ? home : "/tmp");
}
