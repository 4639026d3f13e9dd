{{- define "svc.name" -}}{{ .Release.Name | trunc 50 | trimSuffix "-" }}{{- end -}}

{{- define "svc.labels" -}}
app.kubernetes.io/name: svc
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "svc.selector" -}}
app.kubernetes.io/name: svc
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{- define "svc.image" -}}{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}{{- end -}}

{{/* The environment both roles and the migration job share. */}}
{{- define "svc.env" -}}
- name: SVC_BASE_URL
  value: {{ required "baseUrl is required" .Values.baseUrl | quote }}
- name: SVC_LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: SVC_AUTO_MIGRATE
  value: {{ not .Values.migrations.job | quote }}
{{- if .Values.transit.enabled }}
- name: SVC_TRANSIT_ADDR
  value: {{ required "transit.addr is required" .Values.transit.addr | quote }}
- name: SVC_TRANSIT_KEY
  value: {{ required "transit.key is required" .Values.transit.key | quote }}
- name: SVC_TRANSIT_MOUNT
  value: {{ .Values.transit.mount | quote }}
{{- if .Values.transit.role }}
- name: SVC_TRANSIT_ROLE
  value: {{ .Values.transit.role | quote }}
- name: SVC_TRANSIT_AUTH_PATH
  value: {{ .Values.transit.authPath | quote }}
- name: SVC_TRANSIT_JWT_FILE
  value: /var/run/secrets/svc/transit/token
{{- end }}
{{- end }}
{{- if .Values.metrics.enabled }}
- name: OTEL_METRICS_EXPORTER
  value: prometheus
- name: OTEL_EXPORTER_PROMETHEUS_HOST
  value: "0.0.0.0"
- name: OTEL_EXPORTER_PROMETHEUS_PORT
  value: {{ .Values.metrics.port | quote }}
{{- end }}
{{- range $k, $v := .Values.env }}
- name: {{ $k }}
  value: {{ $v | quote }}
{{- end }}
{{- end -}}

{{- define "svc.envFrom" -}}
- secretRef:
    name: {{ required "existingSecret is required" .Values.existingSecret }}
{{- end -}}

{{/* A writable /tmp (the root file system is read-only) and the projected service-account token a pod logs in to
Transit with. */}}
{{- define "svc.volumes" -}}
volumes:
  - name: tmp
    emptyDir: {}
{{- if and .Values.transit.enabled .Values.transit.role }}
  - name: transit-token
    projected:
      sources:
        - serviceAccountToken:
            path: token
            audience: {{ .Values.transit.audience | quote }}
            expirationSeconds: {{ .Values.transit.tokenExpirationSeconds }}
{{- end }}
{{- end -}}

{{- define "svc.mounts" -}}
volumeMounts:
  - name: tmp
    mountPath: /tmp
{{- if and .Values.transit.enabled .Values.transit.role }}
  - name: transit-token
    mountPath: /var/run/secrets/svc/transit
    readOnly: true
{{- end }}
{{- end -}}

{{- define "svc.securityContext" -}}
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: ["ALL"]
{{- end -}}
