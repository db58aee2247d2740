{{/*
Names and labels (Helm conventions).
*/}}
{{- define "platform.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "platform.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "platform.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels. Args: dict "root" $ "component" $c (component optional). */}}
{{- define "platform.selectorLabels" -}}
app.kubernetes.io/name: {{ include "platform.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ .name }}
{{- end }}
{{- end -}}

{{/* Common labels. Args: dict "root" $ "component" $c (component optional). */}}
{{- define "platform.labels" -}}
helm.sh/chart: {{ include "platform.chart" .root }}
{{ include "platform.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: {{ include "platform.name" .root }}
{{- end -}}

{{- define "platform.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "platform.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "platform.image" -}}
{{- $image := .Values.image -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository (toString (default .Chart.AppVersion $image.tag)) -}}
{{- end -}}
{{- end -}}

{{/*
Deep merge that lets src override dst with any value, false and 0 included (sprig's merge functions
skip "empty" values). Mutates dst. Args: dict "dst" $map "src" $map.
*/}}
{{- define "platform.merge" -}}
{{- $dst := .dst -}}
{{- range $key, $value := .src -}}
{{- $current := get $dst $key -}}
{{- if and (kindIs "map" $value) (kindIs "map" $current) -}}
{{- $_ := include "platform.merge" (dict "dst" $current "src" $value) -}}
{{- else -}}
{{- $_ := set $dst $key $value -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
Adds plain and Secret environment variables to an EnvVar map (name -> value/valueFrom); a later call
replaces an earlier variable of the same name. Args: dict "env" $map "plain" $map "secret" $map "where" "path".
*/}}
{{- define "platform.addEnv" -}}
{{- $env := .env -}}
{{- $where := .where -}}
{{- range $name, $value := (default (dict) .plain) -}}
{{- $_ := set $env $name (dict "value" (toString $value)) -}}
{{- end -}}
{{- range $name, $ref := (default (dict) .secret) -}}
{{- if not (kindIs "map" $ref) -}}
{{- fail (printf "%s.secretEnv.%s: needs {secretName: ..., key: ...}" $where $name) -}}
{{- end -}}
{{- if not (and $ref.secretName $ref.key) -}}
{{- fail (printf "%s.secretEnv.%s: needs secretName and key" $where $name) -}}
{{- end -}}
{{- $selector := dict "name" $ref.secretName "key" $ref.key -}}
{{- if $ref.optional -}}
{{- $_ := set $selector "optional" true -}}
{{- end -}}
{{- $_ := set $env $name (dict "valueFrom" (dict "secretKeyRef" $selector)) -}}
{{- end -}}
{{- end -}}

{{/* Checks shared by every component. Args: the resolved component. */}}
{{- define "platform.validate" -}}
{{- $c := . -}}
{{- $before := add (int $c.preStopSleepSeconds) (int $c.drainDelaySeconds) -}}
{{- if and (gt (int $before) 0) (le (int $c.terminationGracePeriodSeconds) (int $before)) -}}
{{- fail (printf "%s: terminationGracePeriodSeconds (%v) must be larger than preStopSleepSeconds + drainDelaySeconds (%v), or the drain gets no time" $c.where $c.terminationGracePeriodSeconds $before) -}}
{{- end -}}
{{- if and $c.pdb.enabled (not (kindIs "invalid" $c.pdb.minAvailable)) (not $c.autoscaling.enabled) (regexMatch "^[0-9]+$" (toString $c.pdb.minAvailable)) (ge (int $c.pdb.minAvailable) (int $c.replicas)) -}}
{{- fail (printf "%s: pdb.minAvailable (%v) must be below replicas (%v), or no pod can ever be evicted" $c.where $c.pdb.minAvailable $c.replicas) -}}
{{- end -}}
{{- if and $c.pdb.enabled $c.autoscaling.enabled (not (kindIs "invalid" $c.pdb.minAvailable)) (regexMatch "^[0-9]+$" (toString $c.pdb.minAvailable)) (ge (int $c.pdb.minAvailable) (int $c.autoscaling.minReplicas)) -}}
{{- fail (printf "%s: pdb.minAvailable (%v) must be below autoscaling.minReplicas (%v), or no pod can ever be evicted" $c.where $c.pdb.minAvailable $c.autoscaling.minReplicas) -}}
{{- end -}}
{{- if and $c.autoscaling.enabled (gt (int $c.autoscaling.minReplicas) (int $c.autoscaling.maxReplicas)) -}}
{{- fail (printf "%s.autoscaling: minReplicas is above maxReplicas" $c.where) -}}
{{- end -}}
{{- if and $c.autoscaling.enabled (not (or $c.autoscaling.targetCPUUtilizationPercentage $c.autoscaling.targetMemoryUtilizationPercentage)) -}}
{{- fail (printf "%s.autoscaling: set targetCPUUtilizationPercentage and/or targetMemoryUtilizationPercentage" $c.where) -}}
{{- end -}}
{{- if and $c.service.headless (ne (toString $c.service.type) "ClusterIP") -}}
{{- fail (printf "%s.service: headless needs type ClusterIP" $c.where) -}}
{{- end -}}
{{- end -}}

{{/*
Metrics of one component: sets metricsPort (0 when .Values.metrics.enabled is false) and METRICS_PORT, or
METRICS_ENABLED=false when metrics are off (the processes serve them by default). Set after the values' env so
that the variables always agree with the port the chart opens and annotates.
Args: dict "component" $c "metrics" .Values.metrics.
*/}}
{{- define "platform.addMetrics" -}}
{{- $c := .component -}}
{{- $m := default (dict) .metrics -}}
{{- $_ := set $c "metricsPort" 0 -}}
{{- if $m.enabled -}}
{{- $port := int $m.port -}}
{{- if or (lt $port 1) (gt $port 65535) -}}
{{- fail (printf "metrics.port: %v is not a port" $m.port) -}}
{{- end -}}
{{- if eq $port (int $c.port) -}}
{{- fail (printf "%s: metrics.port (%d) is also its %s port" $c.where $port $c.portName) -}}
{{- end -}}
{{- if eq $port (int (default 0 $c.adminPort)) -}}
{{- fail (printf "%s: metrics.port (%d) is also its admin port" $c.where $port) -}}
{{- end -}}
{{- $_ := set $c.envVars "METRICS_PORT" (dict "value" (toString $port)) -}}
{{- $_ := set $c "metricsPort" $port -}}
{{- else -}}
{{- $_ := set $c.envVars "METRICS_ENABLED" (dict "value" "false") -}}
{{- end -}}
{{- end -}}

{{/*
Every enabled component (the services in name order, then the gateway), fully resolved from
.Values.defaults plus its own values, as YAML {components: [...]}. Each component has: name, kind
(service|gateway), where (values path), fullname, command, port, portName, envVars (name -> EnvVar body),
metricsPort (0 when metrics are off), for the gateway adminPort (the admin API's), and every key of
.Values.defaults. The templates use it as
  range (include "platform.components" . | fromYaml).components
*/}}
{{- define "platform.components" -}}
{{- $V := .Values -}}
{{- $fullname := include "platform.fullname" . -}}
{{- $components := list -}}
{{- $upstreams := dict -}}
{{- $nats := $V.global.nats -}}
{{- /* Every component learns where every service listens: the gateway calls them all, and a service may ask
       another a question that needs an answer now (customers asks payments about cards). */ -}}
{{- range $name := keys $V.services | sortAlpha -}}
{{- $values := default (dict) (get $V.services $name) -}}
{{- if or (not (hasKey $values "enabled")) $values.enabled -}}
{{- $port := int (default (default 50051 $V.defaults.grpcPort) $values.grpcPort) -}}
{{- $_ := set $upstreams (printf "%s_GRPC_URL" ($name | upper | replace "-" "_")) (printf "%s:%d" (printf "%s-%s" $fullname $name | trunc 63 | trimSuffix "-") $port) -}}
{{- end -}}
{{- end -}}
{{- range $name := keys $V.services | sortAlpha -}}
{{- $values := default (dict) (get $V.services $name) -}}
{{- if or (not (hasKey $values "enabled")) $values.enabled -}}
{{- $where := printf "services.%s" $name -}}
{{- if not (regexMatch "^[a-z]([-a-z0-9]*[a-z0-9])?$" $name) -}}
{{- fail (printf "%s: a service name must be a lowercase DNS label" $where) -}}
{{- end -}}
{{- if eq $name "gateway" -}}
{{- fail "services.gateway: that name belongs to the gateway" -}}
{{- end -}}
{{- $c := deepCopy $V.defaults -}}
{{- $_ := include "platform.merge" (dict "dst" $c "src" (deepCopy $values)) -}}
{{- $port := int (default 50051 $c.grpcPort) -}}
{{- $componentName := printf "%s-%s" $fullname $name | trunc 63 | trimSuffix "-" -}}
{{- $database := default (dict) $c.database -}}
{{- $databaseSecret := default $V.global.database.existingSecret $database.existingSecret -}}
{{- if not $databaseSecret -}}
{{- fail (printf "%s: DATABASE_URL needs global.database.existingSecret or %s.database.existingSecret" $where $where) -}}
{{- end -}}
{{- $env := dict -}}
{{- $_ := set $env "NODE_ENV" (dict "value" (toString $V.global.nodeEnv)) -}}
{{- $_ := set $env "LOG_LEVEL" (dict "value" (toString (default $V.global.logLevel $c.logLevel))) -}}
{{- $_ := set $env "GRPC_PORT" (dict "value" (toString $port)) -}}
{{- /* With the migration Jobs (migrations-job.yaml) the pods never migrate: they wait for the schema instead. */ -}}
{{- $_ := set $env "MIGRATE_ON_START" (dict "value" (ternary "false" "true" (and $V.migrations (eq (toString $V.migrations.enabled) "true")))) -}}
{{- $_ := set $env "DATABASE_URL" (dict "valueFrom" (dict "secretKeyRef" (dict "name" $databaseSecret "key" (default $name $database.secretKey)))) -}}
{{- $own := printf "%s_GRPC_URL" ($name | upper | replace "-" "_") -}}
{{- range $key, $url := $upstreams -}}
{{- if ne $key $own -}}
{{- $_ := set $env $key (dict "value" $url) -}}
{{- end -}}
{{- end -}}
{{- if $nats.existingSecret -}}
{{- $_ := set $env "NATS_URL" (dict "valueFrom" (dict "secretKeyRef" (dict "name" $nats.existingSecret "key" (default "nats-url" $nats.secretKey)))) -}}
{{- else if $nats.url -}}
{{- $_ := set $env "NATS_URL" (dict "value" (toString $nats.url)) -}}
{{- else -}}
{{- fail "global.nats: set url or existingSecret" -}}
{{- end -}}
{{- /* The event stream as the services create it, and the least they bring it up to; they never lower it. */ -}}
{{- $stream := default (dict) $nats.stream -}}
{{- $_ := set $env "EVENTS_STREAM_REPLICAS" (dict "value" (toString (default 3 $stream.replicas))) -}}
{{- $maxAgeHours := 168 -}}
{{- if hasKey $stream "maxAgeHours" -}}{{- $maxAgeHours = int $stream.maxAgeHours -}}{{- end -}}
{{- $_ := set $env "EVENTS_STREAM_MAX_AGE_HOURS" (dict "value" (toString $maxAgeHours)) -}}
{{- $_ := set $env "EVENTS_STREAM_STORAGE" (dict "value" (toString (default "file" $stream.storage))) -}}
{{- /* The services that build public links (the catalog's readsPublicUrl) get the gateway's external base URL;
       their own env or global.env may still set it. */ -}}
{{- if $c.readsPublicUrl -}}
{{- if not $V.gateway.publicUrl -}}
{{- fail (printf "%s reads PUBLIC_URL: set gateway.publicUrl" $where) -}}
{{- end -}}
{{- $_ := set $env "PUBLIC_URL" (dict "value" (toString $V.gateway.publicUrl)) -}}
{{- end -}}
{{- $_ := include "platform.addEnv" (dict "env" $env "plain" $V.global.env "secret" $V.global.secretEnv "where" "global") -}}
{{- $_ := include "platform.addEnv" (dict "env" $env "plain" $c.env "secret" $c.secretEnv "where" $where) -}}
{{- $_ := set $c "name" $name -}}
{{- $_ := set $c "kind" "service" -}}
{{- $_ := set $c "where" $where -}}
{{- $_ := set $c "fullname" $componentName -}}
{{- $_ := set $c "command" (default (list "node" (printf "services/%s/dist/main.js" $name)) $c.command) -}}
{{- $_ := set $c "port" $port -}}
{{- $_ := set $c "portName" "grpc" -}}
{{- $_ := set $c "envVars" $env -}}
{{- $_ := include "platform.addMetrics" (dict "component" $c "metrics" $V.metrics) -}}
{{- $_ := set $c.envVars "SHUTDOWN_DELAY_MS" (dict "value" (toString (mul (int (default 0 $c.drainDelaySeconds)) 1000))) -}}
{{- $_ := include "platform.validate" $c -}}
{{- $components = append $components $c -}}
{{- end -}}
{{- end -}}
{{- if $V.gateway.enabled -}}
{{- $where := "gateway" -}}
{{- $c := deepCopy $V.defaults -}}
{{- $_ := include "platform.merge" (dict "dst" $c "src" (deepCopy $V.gateway)) -}}
{{- $port := int (default 8080 $c.port) -}}
{{- if not $c.publicUrl -}}
{{- fail "gateway.publicUrl: set the external base URL (PUBLIC_URL)" -}}
{{- end -}}
{{- $env := dict -}}
{{- $_ := set $env "NODE_ENV" (dict "value" (toString $V.global.nodeEnv)) -}}
{{- $_ := set $env "LOG_LEVEL" (dict "value" (toString (default $V.global.logLevel $c.logLevel))) -}}
{{- $_ := set $env "PORT" (dict "value" (toString $port)) -}}
{{- $_ := set $env "PUBLIC_URL" (dict "value" (toString $c.publicUrl)) -}}
{{- range $key, $url := $upstreams -}}
{{- $_ := set $env $key (dict "value" $url) -}}
{{- end -}}
{{- $_ := include "platform.addEnv" (dict "env" $env "plain" $V.global.env "secret" $V.global.secretEnv "where" "global") -}}
{{- $_ := include "platform.addEnv" (dict "env" $env "plain" $c.env "secret" $c.secretEnv "where" $where) -}}
{{- if not (or (hasKey $env "ADMIN_TOKENS") (hasKey $env "ADMIN_TOKEN")) -}}
{{- fail "gateway.secretEnv.ADMIN_TOKENS: reference the Secret that holds the admin tokens" -}}
{{- end -}}
{{- /* The admin API on a port of its own, behind a Service of its own: the public port never serves /admin. */ -}}
{{- $admin := default (dict) $c.admin -}}
{{- $adminPort := int (default 8081 $admin.port) -}}
{{- if or (lt $adminPort 1) (gt $adminPort 65535) (eq $adminPort $port) -}}
{{- fail (printf "gateway.admin.port: %v must be a port other than gateway.port (%d)" $admin.port $port) -}}
{{- end -}}
{{- $_ := set $env "ADMIN_PORT" (dict "value" (toString $adminPort)) -}}
{{- $_ := set $c "adminPort" $adminPort -}}
{{- if not (kindIs "invalid" $c.trustProxy) -}}
{{- if ne (toString $c.trustProxy) "" -}}
{{- $_ := set $env "TRUST_PROXY" (dict "value" (toString $c.trustProxy)) -}}
{{- end -}}
{{- end -}}
{{- $_ := set $c "name" "gateway" -}}
{{- $_ := set $c "kind" "gateway" -}}
{{- $_ := set $c "where" $where -}}
{{- $_ := set $c "fullname" (printf "%s-gateway" $fullname | trunc 63 | trimSuffix "-") -}}
{{- $_ := set $c "command" (default (list "node" "gateway/dist/main.js") $c.command) -}}
{{- $_ := set $c "port" $port -}}
{{- $_ := set $c "portName" "http" -}}
{{- $_ := set $c "envVars" $env -}}
{{- $_ := include "platform.addMetrics" (dict "component" $c "metrics" $V.metrics) -}}
{{- $_ := set $c.envVars "SHUTDOWN_DELAY_MS" (dict "value" (toString (mul (int (default 0 $c.drainDelaySeconds)) 1000))) -}}
{{- $_ := include "platform.validate" $c -}}
{{- $components = append $components $c -}}
{{- end -}}
{{- toYaml (dict "components" $components) -}}
{{- end -}}

{{/* Probes of one component. Args: the resolved component. */}}
{{- define "platform.probes" -}}
{{- $c := . -}}
{{- $startup := dict -}}
{{- $readiness := dict -}}
{{- $liveness := dict -}}
{{- if eq $c.kind "service" -}}
{{- $grpc := dict "grpc" (dict "port" (int $c.port)) -}}
{{- $startup = $grpc -}}
{{- $readiness = $grpc -}}
{{- $liveness = $grpc -}}
{{- else -}}
{{- $startup = dict "tcpSocket" (dict "port" $c.portName) -}}
{{- $readiness = dict "httpGet" (dict "path" "/health" "port" $c.portName) -}}
{{- $liveness = dict "tcpSocket" (dict "port" $c.portName) -}}
{{- end -}}
startupProbe:
  {{- toYaml (merge (deepCopy (default (dict) $c.probes.startup)) $startup) | nindent 2 }}
readinessProbe:
  {{- toYaml (merge (deepCopy (default (dict) $c.probes.readiness)) $readiness) | nindent 2 }}
livenessProbe:
  {{- toYaml (merge (deepCopy (default (dict) $c.probes.liveness)) $liveness) | nindent 2 }}
{{- end -}}
