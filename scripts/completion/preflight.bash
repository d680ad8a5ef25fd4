# bash completion for preflight-probe, preflight-report and preflight-dashboard (installed to
# share/bash-completion/completions; or `source scripts/completion/preflight.bash`).

_preflight_probe()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
    --out) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --artifacts) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --amber) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --device | --timeout | --jobs | --repeat | --power-budget | --power-phase-ms) COMPREPLY=(); return ;;
    --tests | --skip)
        local ids
        ids=$(preflight-probe --list-tests 2>/dev/null | awk '{print $1}')
        COMPREPLY=($(compgen -W "$ids" -- "$cur"))
        return
        ;;
    esac
    COMPREPLY=($(compgen -W "--device --all --out --pretty --host-label --list --tests --skip --timeout --jobs --repeat --artifacts --fresh-device --no-power --power-counter-only --power-budget --power-phase-ms --no-smoke --list-tests --amber --help --version" -- "$cur"))
}

_preflight_report_options()
{
    case $1 in
    matrix) echo "--format --out --only-differences --color --no-color --help" ;;
    diff) echo "--format --out --force --help" ;;
    gate) echo "--format --out --expectations --help" ;;
    expectations) echo "--fails --flakes --skips --device --reason --until --out --help" ;;
    fleet-limits) echo "--out --help" ;;
    profile) echo "--device --out --help" ;;
    junit) echo "--out --help" ;;
    machine-check) echo "--out --help" ;;
    upload) echo "--url --token-file --spool --timeout --retries --backoff-ms --deadline --ca-file --artifacts --flush --spool-list --spool-drop --help" ;;
    esac
}

_preflight_report()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local commands="matrix diff gate expectations machine-check fleet-limits profile junit upload"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    local command=${COMP_WORDS[1]}
    case $prev in
    --format)
        case $command in
        matrix) COMPREPLY=($(compgen -W "text markdown json html" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "text json" -- "$cur")) ;;
        esac
        return
        ;;
    --out | --token-file | --ca-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --spool | --artifacts) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    --url | --timeout | --retries | --backoff-ms | --deadline | --device | --spool-drop) COMPREPLY=(); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_preflight_report_options "$command")" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

complete -F _preflight_probe preflight-probe
complete -F _preflight_report preflight-report

_preflight_dashboard()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "serve token import --help --version" -- "$cur"))
        return
    fi
    local command=${COMP_WORDS[1]}
    case $prev in
    --db | --tls-cert | --tls-key | --expectations | --webhook-secret) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --listen | --jobs | --max-connections | --max-per-address | --header-deadline | --request-deadline | \
        --token-artifact-quota | --public-url | --webhook | --webhook-attempts | --webhook-retry) COMPREPLY=(); return ;;
    --artifacts) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    token) COMPREPLY=($(compgen -W "add list revoke" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        case $command in
        serve) COMPREPLY=($(compgen -W "--db --listen --public-read --tls-cert --tls-key --quiet --max-connections
            --max-per-address --header-deadline --request-deadline --token-artifact-quota --behind-tls --public-url --expectations
            --webhook --webhook-secret --webhook-attempts --webhook-retry --help" -- "$cur")) ;;
        import) COMPREPLY=($(compgen -W "--db --jobs --artifacts --help" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "--db --help" -- "$cur")) ;;
        esac
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _preflight_dashboard preflight-dashboard
