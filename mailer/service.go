package mailer

import (
	"context"

	"tessera"
	"tessera/service"
)

// Service is the service as the mail transport sees it: a transport of
// players' input (a reply runs /move's command, or resigns) that also
// words the letters it answers with. *service.Service implements it.
type Service interface {
	RunCommand(req service.Request, c service.Command, in service.Args) (service.Reply, error)
	MoveChoices(req service.Request, ref, typed string) []service.Choice
	ResignConfirm(req service.Request, id uint64) (service.Reply, error)
	StatusMessage(g *tessera.Game) (service.Message, error)
	HandWords(req service.Request, ref string) (string, error)
	Picture(g *tessera.Game) (service.File, error)
	// UnsubscribeURL is the one-click unsubscribe address of a letter
	// to address (List-Unsubscribe).
	UnsubscribeURL(userID string, epoch uint32, address string) string
	// AnswerMail enqueues the answer to a reply, once (replyID), in the
	// outbox, so that the courier delivers it like any letter.
	AnswerMail(ctx context.Context, userID string, gameID uint64, replyID, messageID, text string, board bool) (bool, error)
	// MailBounced switches mail off for userID's address after a hard
	// bounce, and tells the player.
	MailBounced(ctx context.Context, userID, address string) (bool, error)
}
