package fakediscord

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Discord's documented limits that discordgo does not check.
const (
	MaxContent          = 2000
	MaxEmbeds           = 10
	MaxEmbedTotal       = 6000
	MaxCustomID         = 100
	MaxChoices          = 25
	MaxChoiceLen        = 100
	MaxActionRows       = 5
	MaxRowButtons       = 5
	MaxButtonLabel      = 80
	MaxSelectOptions    = 25
	MaxFiles            = 10
	MaxCommandOptions   = 25
	MaxCommandNameLen   = 32
	MaxCommandDescLen   = 100
	MaxCommandSize      = 8000
	MaxThreadNameLen    = 100
	MaxModalTitleLength = 45
)

func runes(v any) int {
	s, _ := v.(string)
	return utf8.RuneCountInString(s)
}

func maxLen(e *formErrors, field string, v any, n int) {
	if runes(v) > n {
		e.add(field, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", n))
	}
}

func between(e *formErrors, field string, v any, lo, hi int) {
	if n := runes(v); n < lo || n > hi {
		e.add(field, "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between %d and %d in length.", lo, hi))
	}
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func num(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	case int64:
		return int(n)
	}
	return 0
}

// validateMessage checks a message payload (create, edit, interaction
// response data, follow-up). prefix is "" or "data.".
func validateMessage(e *formErrors, prefix string, p map[string]any, files []File) {
	if p == nil {
		p = map[string]any{}
	}
	maxLen(e, prefix+"content", p["content"], MaxContent)
	embeds := list(p["embeds"])
	if len(embeds) > MaxEmbeds {
		e.add(prefix+"embeds", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", MaxEmbeds))
	}
	total := 0
	for i, x := range embeds {
		em := obj(x)
		f := fmt.Sprintf("%sembeds.%d.", prefix, i)
		maxLen(e, f+"title", em["title"], 256)
		maxLen(e, f+"description", em["description"], 4096)
		maxLen(e, f+"footer.text", obj(em["footer"])["text"], 2048)
		maxLen(e, f+"author.name", obj(em["author"])["name"], 256)
		total += runes(em["title"]) + runes(em["description"]) + runes(obj(em["footer"])["text"]) + runes(obj(em["author"])["name"])
		fields := list(em["fields"])
		if len(fields) > 25 {
			e.add(f+"fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		}
		for j, y := range fields {
			fl := obj(y)
			between(e, fmt.Sprintf("%sfields.%d.name", f, j), fl["name"], 1, 256)
			between(e, fmt.Sprintf("%sfields.%d.value", f, j), fl["value"], 1, 1024)
			total += runes(fl["name"]) + runes(fl["value"])
		}
	}
	if total > MaxEmbedTotal {
		e.add(prefix+"embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
	}
	validateComponents(e, prefix+"components", list(p["components"]))
	if len(files) > MaxFiles {
		e.add(prefix+"files", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", MaxFiles))
	}
	for _, f := range files {
		if claims, ok := checkPNG(f); claims && !ok {
			e.add(f.Field, "BINARY_TYPE_INVALID_IMAGE", fmt.Sprintf("File %q claims to be a PNG image but does not decode as PNG.", f.Name))
		}
	}
}

// messageEmpty reports whether a new message would have nothing to show.
func messageEmpty(p map[string]any, files []File) bool {
	return runes(p["content"]) == 0 && len(list(p["embeds"])) == 0 && len(list(p["components"])) == 0 &&
		len(files) == 0 && len(list(p["sticker_ids"])) == 0 && p["poll"] == nil
}

func validateComponents(e *formErrors, field string, rows []any) {
	if len(rows) > MaxActionRows {
		e.add(field, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", MaxActionRows))
	}
	seen := map[string]bool{}
	for i, r := range rows {
		row := obj(r)
		rf := fmt.Sprintf("%s.%d", field, i)
		if num(row["type"]) != 1 {
			e.add(rf+".type", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Top-level components must be action rows (type 1).")
			continue
		}
		kids := list(row["components"])
		if len(kids) == 0 {
			e.add(rf+".components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
		}
		selects := 0
		for j, k := range kids {
			c := obj(k)
			cf := fmt.Sprintf("%s.components.%d", rf, j)
			typ := num(c["type"])
			id, hasID := c["custom_id"].(string)
			switch typ {
			case 2: // button
				maxLen(e, cf+".label", c["label"], MaxButtonLabel)
				if num(c["style"]) == 5 { // link
					validateLinkURL(e, cf+".url", c["url"])
					if hasID {
						e.add(cf+".custom_id", "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom_id.")
					}
					continue
				}
				if _, hasURL := c["url"]; hasURL {
					e.add(cf+".url", "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only link buttons (style 5) can have a url.")
				}
			case 3, 5, 6, 7, 8: // selects
				selects++
				opts := list(c["options"])
				if typ == 3 && (len(opts) == 0 || len(opts) > MaxSelectOptions) {
					e.add(cf+".options", "BASE_TYPE_BAD_LENGTH", fmt.Sprintf("Must be between 1 and %d in length.", MaxSelectOptions))
				}
				for n, o := range opts {
					between(e, fmt.Sprintf("%s.options.%d.label", cf, n), obj(o)["label"], 1, 100)
					between(e, fmt.Sprintf("%s.options.%d.value", cf, n), obj(o)["value"], 1, 100)
				}
			case 4: // text input (modals)
			default:
				e.add(cf+".type", "COMPONENT_TYPE_INVALID", fmt.Sprintf("Unknown component type %d.", typ))
				continue
			}
			if !hasID || id == "" {
				e.add(cf+".custom_id", "BASE_TYPE_REQUIRED", "This field is required")
			} else {
				maxLen(e, cf+".custom_id", id, MaxCustomID)
				if seen[id] {
					e.add(cf+".custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
				}
				seen[id] = true
			}
		}
		if len(kids) > MaxRowButtons || (selects > 0 && len(kids) > 1) {
			e.add(rf+".components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
		}
	}
}

// MaxButtonURL is the longest URL a link button takes.
const MaxButtonURL = 512

// validateLinkURL checks a link button's url as Discord does: required,
// at most MaxButtonURL characters, a well-formed URL of scheme http,
// https or discord (docs/testing.md cites where each rule comes from).
func validateLinkURL(e *formErrors, field string, v any) {
	u, _ := v.(string)
	if u == "" {
		e.add(field, "BASE_TYPE_REQUIRED", "This field is required")
		return
	}
	maxLen(e, field, u, MaxButtonURL)
	scheme, rest, ok := strings.Cut(u, "://")
	switch strings.ToLower(scheme) {
	case "http", "https", "discord":
	default:
		e.add(field, "URL_TYPE_INVALID_SCHEME", fmt.Sprintf("Scheme %q is not supported. Scheme must be one of ('http', 'https', 'discord').", scheme))
		return
	}
	if !ok || rest == "" || strings.ContainsAny(u, " \t\n<>\"") {
		e.add(field, "URL_TYPE_INVALID_URL", "Not a well formed URL.")
	}
}

// validateChoices checks an autocomplete answer (callback type 8).
func validateChoices(e *formErrors, choices []any) {
	if len(choices) > MaxChoices {
		e.add("data.choices", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", MaxChoices))
	}
	for i, c := range choices {
		ch := obj(c)
		f := fmt.Sprintf("data.choices.%d.", i)
		between(e, f+"name", ch["name"], 1, MaxChoiceLen)
		switch v := ch["value"].(type) {
		case string:
			between(e, f+"value", v, 1, MaxChoiceLen)
		case float64:
		default:
			e.add(f+"value", "BASE_TYPE_REQUIRED", "This field is required")
		}
	}
}

var commandName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// validateCommand checks one application command definition.
func validateCommand(e *formErrors, field string, c map[string]any) {
	name, _ := c["name"].(string)
	typ := num(c["type"])
	if typ == 0 {
		typ = 1
	}
	if typ == 1 {
		if !commandName.MatchString(name) || strings.ToLower(name) != name {
			e.add(field+".name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		between(e, field+".description", c["description"], 1, MaxCommandDescLen)
	} else {
		between(e, field+".name", name, 1, MaxCommandNameLen)
	}
	validateCommandOptions(e, field+".options", list(c["options"]), atTop)
	if typ == 1 {
		if n := commandSize(c); n > MaxCommandSize {
			e.add(field, "APPLICATION_COMMAND_TOO_LARGE", fmt.Sprintf("Command exceeds maximum size (%d)", MaxCommandSize))
		}
	}
	// contexts: 0 guild, 1 bot DM, 2 private channel; integration_types:
	// 0 guild install, 1 user install (interactions/application-commands.mdx).
	for i, v := range list(c["contexts"]) {
		if n := num(v); n < 0 || n > 2 {
			e.add(fmt.Sprintf("%s.contexts.%d", field, i), "BASE_TYPE_CHOICES", "Value must be one of {0, 1, 2}.")
		}
	}
	for i, v := range list(c["integration_types"]) {
		if n := num(v); n < 0 || n > 1 {
			e.add(fmt.Sprintf("%s.integration_types.%d", field, i), "BASE_TYPE_CHOICES", "Value must be one of {0, 1}.")
		}
	}
}

// offeredIn reports whether Discord offers a registered command in an
// interaction context (0 guild, 1 bot DM): its contexts, or for a command
// without them the deprecated dm_permission.
func offeredIn(cmd map[string]any, context int) bool {
	if cs, ok := cmd["contexts"].([]any); ok {
		for _, c := range cs {
			if num(c) == context {
				return true
			}
		}
		return false
	}
	if dm, ok := cmd["dm_permission"].(bool); ok && !dm && context == 1 {
		return false
	}
	return true
}

// Where a list of command options sits: a command's own options, a
// subcommand group's, or a subcommand's.
const (
	atTop = iota
	inGroup
	inSubcommand
)

// Option types that nest (interactions/application-commands.mdx,
// Application Command Option Type).
const (
	subCommand      = 1
	subCommandGroup = 2
)

// validateCommandOptions checks a list of options at a level. Discord
// nests one way only: a command holds subcommands and groups, or options;
// a group holds subcommands; a subcommand holds options
// (interactions/application-commands.mdx, Subcommands and Subcommand
// Groups; discord-api-spec ApplicationCommandSubcommandGroupOption and
// ApplicationCommandSubcommandOption).
func validateCommandOptions(e *formErrors, field string, opts []any, level int) {
	if len(opts) > MaxCommandOptions {
		e.add(field, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", MaxCommandOptions))
	}
	optional := false
	names := map[string]bool{}
	nesting, plain := 0, 0
	for i, o := range opts {
		op := obj(o)
		f := fmt.Sprintf("%s.%d", field, i)
		name, _ := op["name"].(string)
		if !commandName.MatchString(name) || strings.ToLower(name) != name {
			e.add(f+".name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if names[name] {
			e.add(f+".name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[name] = true
		between(e, f+".description", op["description"], 1, MaxCommandDescLen)
		req, _ := op["required"].(bool)
		if req && optional {
			e.add(f+".required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
		}
		if !req {
			optional = true
		}
		t := num(op["type"])
		switch {
		case t == subCommand && level == inSubcommand, t == subCommandGroup && level != atTop, t != subCommand && level == inGroup:
			// A subcommand in a subcommand, a group in a group or in a
			// subcommand, a value in a group.
			e.add(f+".type", "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Value is not a valid option type at this level of nesting")
		}
		if t == subCommand || t == subCommandGroup {
			nesting++
		} else {
			plain++
		}
		choices := list(op["choices"])
		if len(choices) > MaxChoices {
			e.add(f+".choices", "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", MaxChoices))
		}
		auto, _ := op["autocomplete"].(bool)
		if auto && len(choices) > 0 {
			e.add(f+".autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", "Autocomplete cannot be set with choices")
		}
		// Choices and autocomplete are for STRING, INTEGER and NUMBER
		// options only (Application Command Option Structure).
		if t != 3 && t != 4 && t != 10 {
			if len(choices) > 0 {
				e.add(f+".choices", "APPLICATION_COMMAND_OPTION_CHOICES_INVALID", "Choices are only valid for string, integer and number options")
			}
			if auto {
				e.add(f+".autocomplete", "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", "Autocomplete is only valid for string, integer and number options")
			}
		}
		for j, c := range choices {
			between(e, fmt.Sprintf("%s.choices.%d.name", f, j), obj(c)["name"], 1, MaxChoiceLen)
			if v, ok := obj(c)["value"].(string); ok {
				between(e, fmt.Sprintf("%s.choices.%d.value", f, j), v, 1, MaxChoiceLen)
			}
		}
		switch t {
		case subCommand:
			validateCommandOptions(e, f+".options", list(op["options"]), inSubcommand)
		case subCommandGroup:
			validateCommandOptions(e, f+".options", list(op["options"]), inGroup)
		default:
			if _, has := op["options"]; has && len(list(op["options"])) > 0 {
				e.add(f+".options", "APPLICATION_COMMAND_OPTIONS_INVALID", "Only subcommands and subcommand groups have options")
			}
		}
	}
	if nesting > 0 && plain > 0 {
		e.add(field, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-command and sub-command group option types are mutually exclusive to all other types")
	}
}

// commandSize is what counts against a slash command's 8000 characters:
// the names, descriptions and values of the command, its options
// (subcommands and groups included) and their choices
// (interactions/application-commands.mdx, Slash Commands). The bot sets
// no localizations, so only the defaults count.
func commandSize(c map[string]any) int {
	n := runes(c["name"]) + runes(c["description"])
	for _, o := range list(c["options"]) {
		op := obj(o)
		n += commandSize(op)
		for _, ch := range list(op["choices"]) {
			n += runes(obj(ch)["name"])
			switch v := obj(ch)["value"].(type) {
			case string:
				n += runes(v)
			case float64:
				n += len(strconv.FormatFloat(v, 'f', -1, 64))
			}
		}
	}
	return n
}
