package fakediscord

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Attachments in a message body, as Discord's API description and its
// reference refuse them:
//
//   - discord-api-spec, specs/openapi.json, MessageAttachmentRequest: "id"
//     is required and a snowflake; "filename" is a string of 1 to 1024
//     characters or null (absent is allowed); "description" and "title" up
//     to 1024, "waveform" up to 400, "duration_secs" at least 0; at most 10
//     attachments (MessageCreateRequest, MessageEditRequestPartial).
//   - discord-api-docs, developers/reference.mdx (Uploading Files): "All
//     files[n] parameters must include a valid Content-Disposition subpart
//     header with a filename"; "The suffixed index n is the snowflake
//     placeholder that can be used in the attachments field". An id is
//     therefore the n of an upload in the same request or, in an edit
//     (Editing Message Attachments), the id of an attachment the message
//     already has: any other id names no file.
const (
	MaxAttachments        = 10
	MaxAttachmentFilename = 1024
)

// MaxUploadSize is the per-file upload limit: "The file upload size limit
// applies to each file in a request. The default limit is 10 MiB for all
// users" (developers/reference.mdx, Uploading Files). A larger file is
// refused with 413 and code 40005 "Request entity too large"
// (developers/topics/opcodes-and-status-codes.mdx).
const MaxUploadSize = 10 << 20

// tooLarge is the field of the first file over MaxUploadSize, or "".
func tooLarge(files []File) string {
	for _, f := range files {
		if len(f.Data) > MaxUploadSize {
			return f.Field
		}
	}
	return ""
}

var snowflakeID = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// attachmentID is an attachment's id as the request spelled it (Discord
// takes a string or a number), and whether it is a snowflake.
func attachmentID(v any) (string, bool) {
	switch id := v.(type) {
	case string:
		return id, snowflakeID.MatchString(id)
	case float64:
		return strconv.FormatFloat(id, 'f', -1, 64), id >= 0 && id == float64(int64(id))
	}
	return fmt.Sprint(v), false
}

// uploadIndex is n of a files[n] part ("" if the field is not one).
func uploadIndex(f File) string {
	n, ok := strings.CutPrefix(f.Field, "files[")
	if !ok || !strings.HasSuffix(n, "]") {
		return ""
	}
	return strings.TrimSuffix(n, "]")
}

// validateAttachments checks the body's attachments and the uploaded
// files' names. existing are the attachments of the message being edited
// (nil for a new message).
func validateAttachments(e *formErrors, prefix string, p map[string]any, files []File, existing []any) {
	for _, f := range files {
		if f.Name == "" {
			e.add(f.Field, "BASE_TYPE_REQUIRED", "This field is required (the part's Content-Disposition has no filename).")
		}
	}
	raw, ok := p["attachments"]
	if !ok || raw == nil {
		return
	}
	atts := list(raw)
	if len(atts) > MaxAttachments {
		e.add(prefix+"attachments", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", MaxAttachments))
	}
	known := map[string]bool{}
	for _, f := range files {
		if n := uploadIndex(f); n != "" {
			known[n] = true
		}
	}
	for _, a := range existing {
		if id, ok := obj(a)["id"].(string); ok {
			known[id] = true
		}
	}
	for i, x := range atts {
		a := obj(x)
		f := fmt.Sprintf("%sattachments.%d.", prefix, i)
		if a == nil {
			e.add(strings.TrimSuffix(f, "."), "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
			continue
		}
		raw, has := a["id"]
		if !has || raw == nil {
			e.add(f+"id", "BASE_TYPE_REQUIRED", "This field is required")
		} else if id, ok := attachmentID(raw); !ok {
			e.add(f+"id", "NUMBER_TYPE_COERCE", fmt.Sprintf("Value %q is not snowflake.", id))
		} else if !known[id] {
			e.add(f+"id", "ATTACHMENT_NOT_FOUND", fmt.Sprintf("Attachment %s is neither an upload files[%s] of this request nor an attachment of the message.", id, id))
		}
		if name, has := a["filename"]; has && name != nil {
			if _, isString := name.(string); !isString {
				e.add(f+"filename", "BASE_TYPE_STRING", "Could not interpret the value as string.")
			} else {
				between(e, f+"filename", name, 1, MaxAttachmentFilename)
			}
		}
		maxLen(e, f+"description", a["description"], 1024)
		maxLen(e, f+"title", a["title"], 1024)
		maxLen(e, f+"waveform", a["waveform"], 400)
		if d, ok := a["duration_secs"].(float64); ok && d < 0 {
			e.add(f+"duration_secs", "NUMBER_TYPE_MIN", "Value must be greater than or equal to 0.")
		}
	}
}
