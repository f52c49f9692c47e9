"""What the buttons, menu items and links of whole families of applications commit a person to, read as their
help pages name them: per family, labels that ask and their harmless neighbours on the same page, clicked on
that family's own site. The consequence vocabulary is data (`[consequence.*]` and `[navigation]` of
resources/cues.toml); these are our own examples of each class, in English and in German, French, Spanish and
Portuguese where a family's class has a translation."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, url: str):
    data: dict = {"type": "click", "x": 5, "y": 5, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data), Observation(url=url))


# family → (a page of that family, labels that commit, harmless labels beside them)
FAMILIES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "mail": ("https://mail.google.com/mail/u/0/#settings/fwdandpop",
             ("Add a forwarding address", "Turn on forwarding", "Create filter", "Add inbox rule", "Add delegate",
              "Delegate access", "Empty Trash now", "Delete forever", "Block domain", "Weiterleitung aktivieren",
              "Créer une règle", "Activar el reenvío", "Ativar encaminhamento"),
             ("Compose", "Inbox", "Archive", "Mark as unread", "Show original", "Labels", "Print all",
              "Older", "Save draft")),
    "chat": ("https://app.slack.com/client/T0A1/C0B2",
             ("Archive channel", "Add to Slack", "Change channel manager", "Invite to workspace",
              "Share channel with external organizations", "Ban", "Kick", "Timeout member", "Prune members",
              "Leave server", "Exit group", "Clear chat", "Link a device", "Gruppe verlassen",
              "Quitter le groupe", "Salir del grupo", "Sair do grupo"),
             ("Threads", "Saved items", "Channel details", "Copy link", "Mark unread", "Pin to channel",
              "View profile", "Mute channel", "Add reaction", "Starred messages", "Contact info")),
    "social": ("https://www.facebook.com/groups/gardeners",
               ("Share to Feed", "Boost post", "Unfriend", "Remove friend", "Make mod", "Give award",
                "Block this account", "Beitrag bewerben", "Booster la publication", "Promocionar publicación",
                "Impulsionar publicação"),
               ("Like", "See more", "Edit post", "Save post", "View more comments", "Most relevant",
                "Turn on notifications for this post", "Show this thread", "Translate post")),
    "shopping": ("https://www.amazon.com/gp/your-account/order-history",
                 ("Cancel items", "Cancel selected items", "Turn on 1-Click", "End my benefits",
                  "Retract bid", "List it", "Request cancellation", "Artikel stornieren", "Annuler les articles",
                  "Cancelar artículos", "Cancelar itens"),
                 ("Buy it again", "Track package", "View your item", "View order details", "Write a product review",
                  "Add to Cart", "Save for later", "Compare with similar items", "Add to watchlist")),
    "bank": ("https://secure.examplebank.com/accounts/overview",
             ("Stop payment", "Report card lost or stolen", "Increase credit limit", "Request a credit limit increase",
              "Cancel automatic payment", "Karte als gestohlen melden", "Déclarer la carte perdue",
              "Reportar tarjeta robada", "Sustar cheque"),
             ("View statement", "Account details", "Search transactions", "Preview order", "Preview transfer",
              "Positions", "Balances", "Watchlist")),
    "payments": ("https://dashboard.stripe.com/payments",
                 ("Create payout", "Pay out now", "Finalize invoice", "Mark as uncollectible", "Roll key",
                  "Reveal live key", "Add endpoint", "Auszahlung anfordern", "Schlüssel rotieren",
                  "Revelar clave", "Regenerar chave"),
                 ("Payments", "Balances", "Customers", "View logs", "Copy ID", "Edit columns", "Filter", "Reports")),
    "developer": ("https://github.com/acme/widgets/settings",
                  ("Squash and merge", "Rebase and merge", "Enable auto-merge", "New repository secret",
                   "Add secret", "Add repository variable", "Reveal values",
                   "Token anzeigen", "Afficher le jeton", "Mostrar el token",
                   "Revelar chave"),
                  ("Code", "Pull requests", "Actions", "Insights", "Go to file", "Blame", "Raw", "Files changed",
                   "Review changes", "Browse files", "Copy SHA", "View workflow file")),
    "cloud": ("https://us-east-1.console.aws.amazon.com/iam/home#/users",
              ("Terminate", "Empty bucket", "Attach policies", "Detach policy", "Add permissions",
               "Create access key", "Schedule key deletion", "Disable key", "Stop logging", "Deregister AMI",
               "Launch instance", "Add principal", "Disable billing", "Regenerate key", "Show keys",
               "Enable public network access", "Richtlinie anfügen", "Arrêter la journalisation",
               "Programar la eliminación de la clave", "Anexar política"),
              ("Instances", "Connect", "Refresh", "Monitoring", "Tags", "Copy ARN", "Properties", "View details",
               "Activity log", "Access control (IAM)", "Check access", "Include Google-provided role grants",
               "Create instance")),
    "admin": ("https://admin.google.com/ac/users",
              ("Get backup verification codes", "Add alternate email", "Block sign-in",
               "Require re-register multifactor authentication", "Convert to shared mailbox", "Suspend", "Freeze",
               "Reset Multifactor", "Reset Authenticators", "Add Person", "Assign Applications", "Assign to Groups",
               "Login As", "MFA zurücksetzen", "Réinitialiser l authentification multifacteur",
               "Restablecer la autenticación multifactor", "Redefinir autenticadores"),
              ("Users", "Groups", "Directory", "User information", "Licenses", "Admin roles", "Manage columns",
               "Active users", "Guest users", "Choose columns")),
    "documents": ("https://onedrive.live.com/?id=root",
                  ("Restore your OneDrive", "Anyone with the link", "Delete permanently", "Transfer ownership",
                   "OneDrive wiederherstellen", "Restaurer votre OneDrive", "Restaurar tu OneDrive",
                   "Restaurar o seu OneDrive"),
                  ("Open", "Preview", "Rename", "Details", "Sort", "View options", "Recent", "Photos",
                   "Manage access", "Copy link", "Stop sharing", "Restore from trash",
                   "Restore selected files from the recycle bin", "Aus dem Papierkorb wiederherstellen",
                   "Restaurer depuis la corbeille", "Restaurar desde la papelera", "Restaurar da lixeira")),
    "crm-hr": ("https://acme.lightning.force.com/lightning/r/Account/001xx/view",
               ("Change Owner", "Terminate", "Terminate Employee", "Hire", "Change Compensation", "Run payroll",
                "Login As", "Gehaltsabrechnung ausführen", "Lancer la paie", "Procesar nómina",
                "Processar folha de pagamento"),
               ("Details", "Related", "Activity", "New Note", "Log a Call", "Printable View", "List View", "Kanban")),
    "device": ("",
               ("Turn off BitLocker", "Suspend BitLocker protection", "Turn Off FileVault", "Decrypt drive",
                "Turn Off Find My", "Never notify", "Disable Secure Boot", "BitLocker deaktivieren",
                "Désactiver FileVault", "Desactivar BitLocker", "Desativar o BitLocker"),
               ("System", "Privacy & security", "Check for updates", "Virus & threat protection", "Displays",
                "Wallpaper", "Battery", "About phone", "Don't allow", "Only while using the app")),
}


def _cases(which: int) -> list[tuple[str, str, str]]:
    return [(family, page, label) for family, spec in FAMILIES.items() for label in spec[which]
            for page in (spec[0],)]


@pytest.mark.parametrize(("family", "url", "label"), _cases(1))
def test_a_consequential_label_of_each_family_asks(family, url, label):
    got = click(label, url)
    assert got.decision is not Decision.ALLOW, (family, label, got.rules)


@pytest.mark.parametrize(("family", "url", "label"), _cases(2))
def test_its_harmless_neighbours_pass(family, url, label):
    got = click(label, url)
    assert got.decision is Decision.ALLOW, (family, label, got.rules, got.reason)


def test_every_family_has_both_sides():
    for family, (_, commits, neighbours) in FAMILIES.items():
        assert len(commits) >= 8 and len(neighbours) >= 8, family
