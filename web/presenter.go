package web

import "tessera/service"

// Presenter is the pages' own: names as written ("@name"), moments as
// dates, and the page's words for what Discord calls autocomplete (the
// service's texts carry neutral tokens; service.Presenter).
var Presenter = service.Plain{Words: service.Wording{MoveList: "page's move"}}
