package service

import "tessera"

// UnknownButton answers a button whose id is none of ours (an old
// message's, or one made up): it says nothing changed and where to go on.
const UnknownButton = "That button is not one I know (from an old message?), so nothing was changed. /games lists your games; /challenges the open challenges."

func unknownButton() error { return errorf(tessera.EINVALID, UnknownButton) }
