"""Money and account buttons (resources/cues.toml `[consequence.*]`, confirm.gui.consequential and
confirm.gui.irreversible), and the false-flag class of buttons that only lead towards a payment
(`[navigation]`). Our own labels, written from how shopping, banking and account-settings flows are
documented; the final step of every flow still asks."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision

GATE = SafetyGate()


def click(label: str, url: str | None = None):
    data: dict = {"type": "click", "x": 1, "y": 1, "target": {"label": label}}
    if url:
        data["url"] = url
    return GATE.assess(action_from_dict(data))


MONEY = [
    "Begin transfer", "Wire Transfer", "Make a payment", "Send money", "Schedule transfer", "Submit payment",
    "Order!", "Buy now!!", "Order now", "Pay", "Start free trial and place order", "Add trial to order",
    "Upgrade subscription", "Change plan", "Proceed with payment", "Place order", "Pay now",
    "Confirm purchase", "Complete purchase", "Send $250", "Transfer €1.000",
    # other languages
    "Jetzt kaufen", "Zahlungspflichtig bestellen", "Überweisung ausführen", "Acheter maintenant",
    "Valider la commande", "Effectuer un virement", "Comprar ahora", "Finalizar compra", "Hacer una transferencia",
    "Finalizar pedido", "Enviar dinheiro", "Acquista ora", "Nu kopen", "Купить", "Оформить заказ",
    "Перевести деньги", "立即购买", "提交订单", "确认付款", "今すぐ購入", "注文を確定する", "구매하기",
]


@pytest.mark.parametrize("label", MONEY)
def test_money_buttons_ask(label):
    a = click(label)
    assert a.decision is Decision.CONFIRM, (label, a.rules)


ACCOUNT = [
    "Change password", "Update email address", "Disable 2FA", "Turn off two-factor authentication",
    "Close account", "Deactivate account", "Passwort ändern", "Konto löschen", "Changer le mot de passe",
    "Supprimer mon compte", "Cambiar contraseña", "Eliminar cuenta", "Alterar senha", "Excluir conta",
    "Сменить пароль", "Удалить аккаунт", "修改密码", "注销账户", "パスワードを変更", "アカウントを削除",
]


@pytest.mark.parametrize("label", ACCOUNT)
def test_account_buttons_ask_or_block(label):
    assert click(label).decision is not Decision.ALLOW, label


TOWARDS_PAYMENT = [
    "Continue to checkout", "Continue to Payment", "Proceed to checkout", "Proceed to shipping",
    "Go to checkout", "Continue to review", "Apply", "Apply coupon", "Redeem gift card", "Next", "Review order",
    "View cart", "Use this address", "Choose shipping method", "Save and continue", "Continue",
    "Weiter zur Kasse", "Zur Kasse", "Passer à la caisse", "Ir a pagar", "Continuar para o pagamento",
    "Перейти к оформлению", "去结算", "レジに進む",
]


@pytest.mark.parametrize("label", TOWARDS_PAYMENT)
def test_buttons_that_only_lead_towards_payment_are_allowed(label):
    a = click(label, url="https://shop.example/cart")
    assert a.decision is Decision.ALLOW, (label, a.rules)


@pytest.mark.parametrize("label", [
    "Order history", "Orders", "Transfers", "Payment methods", "Sort by price", "Purchase history", "Pricing",
    "Compare plans", "Add to cart", "In den Warenkorb", "Ajouter au panier", "Añadir al carrito", "加入购物车",
    "カートに入れる", "Bestellübersicht", "Mes commandes",
])
def test_money_words_that_do_not_commit_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


def test_a_generic_continue_on_a_password_page_still_asks():
    a = click("Continue", url="https://accounts.example/settings/password")
    assert a.decision is Decision.CONFIRM, a.rules


@pytest.mark.parametrize("label", [
    "Swap", "Sell all", "Confirm swap", "Sign transaction", "Stake ETH", "Connect wallet",
])
def test_trading_and_wallet_buttons_ask(label):
    assert click(label).decision is Decision.CONFIRM, label


@pytest.mark.parametrize("label", ["Convert", "Trade history", "Swap cards", "Sign in", "Wallet", "Markets"])
def test_trading_pages_and_lookalike_words_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


@pytest.mark.parametrize("label", [
    "Löschen", "Endgültig löschen", "Absenden", "Supprimer", "Envoyer", "Publier", "Eliminar", "Enviar",
    "Excluir", "Apagar", "Elimina", "Verwijderen", "Удалить", "Отправить", "删除", "提交", "削除", "送信",
])
def test_irreversible_verbs_of_other_languages_ask(label):
    assert click(label).decision is Decision.CONFIRM, label


@pytest.mark.parametrize("label", [
    "Supprimer les filtres", "Supprimer du panier", "Eliminar del carrito", "Enviar a domicilio",
    "Remover do carrinho", "Удалить из корзины", "Sendung verfolgen", "Aus dem Warenkorb entfernen",
])
def test_cart_and_filter_labels_in_other_languages_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


@pytest.mark.parametrize("label", ["Switch account", "Change account picture", "Account", "Subscription details"])
def test_moving_between_accounts_is_not_a_plan_change(label):
    assert click(label).decision is Decision.ALLOW, label


@pytest.mark.parametrize("label", ["Upgrade account", "Change plan", "Switch to annual plan",
                                   "Upgrade my subscription"])
def test_plan_changes_ask(label):
    assert click(label).decision is Decision.CONFIRM, label


@pytest.mark.parametrize(("label", "asks"), [("送金", True), ("振込を実行", True), ("送金履歴", False),
                                             ("振込先一覧", False)])
def test_japanese_transfers_ask_and_their_history_does_not(label, asks):
    assert (click(label).decision is Decision.CONFIRM) is asks, label


@pytest.mark.parametrize("label", [
    "Commander et payer", "Confermare l'ordine", "Ordina e paga", "Kup teraz", "Zamawiam i płacę",
    "Bestellen en betalen", "Betaling bevestigen",
])
def test_commits_to_pay_in_more_languages_ask(label):
    assert click(label).decision is Decision.CONFIRM, label


@pytest.mark.parametrize("label", [
    "Account verwijderen", "Abonnement opzeggen", "Elimina account", "Disdici abbonamento", "Usuń konto",
])
def test_closing_an_account_in_more_languages_asks(label):
    assert click(label).decision is not Decision.ALLOW, label


@pytest.mark.parametrize("label", [
    "Procedi al checkout", "Vai al carrello", "Applica codice sconto", "Doorgaan naar betalen", "Naar de kassa",
    "Przejdź do kasy", "Checkout as guest", "Continue as guest", "Proceed to Buy", "Save and continue to payment",
    "Continue shopping", "Ir al checkout", "Ir para o checkout",
])
def test_steps_towards_payment_in_more_languages_pass(label):
    a = click(label, url="https://shop.example/cart")
    assert a.decision is Decision.ALLOW, (label, a.rules)


@pytest.mark.parametrize("url", [
    "https://bank.example/myaccount/transfer/homepage", "https://bank.example/withdraw/new",
    "https://bank.example/transfer", "https://pay.example/myaccount/transfer/send", "https://exchange.example/withdraw",
    "https://mail.example/mail/#inbox?compose=new", "https://git.example/group/proj/-/issues/new",
    "https://shop.example/checkout", "https://forum.example/r/python/submit",
])
def test_opening_a_form_is_not_the_action(url):
    a = GATE.assess(action_from_dict({"type": "navigate", "url": url}))
    assert a.decision is Decision.ALLOW, (url, a.rules)


@pytest.mark.parametrize("url", ["https://bank.example/transfer?to=x", "https://shop.example/admin/orders/delete",
                                 "https://bank.example/withdraw?amount=500", "https://shop.example/cancel-subscription"])
def test_an_action_path_still_asks_when_no_form_page_follows(url):
    a = GATE.assess(action_from_dict({"type": "navigate", "url": url}))
    assert "confirm.web.state-changing-url" in a.rules, (url, a.rules)


@pytest.mark.parametrize(("label", "text", "asks"), [
    ("Recovery email", "new-owner@mail.example", True), ("Recovery phone", "+1 555 0100", True),
    ("Backup email address", "spare@mail.example", True), ("Email", "me@mail.example", False),
])
def test_a_recovery_contact_asks_on_any_page(label, text, asks):
    a = GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}))
    assert ("confirm.gui.account-contact" in a.rules) is asks, (label, a.rules)


@pytest.mark.parametrize(("label", "asks"), [("Register application", True), ("New OAuth App", True),
                                             ("Add client", False), ("New application", False)])
def test_registering_an_application_asks(label, asks):
    assert (click(label).decision is not Decision.ALLOW) is asks, label


@pytest.mark.parametrize("label", [
    "Modifica password", "Disattiva la verifica in due passaggi", "Wachtwoord wijzigen", "E-mailadres wijzigen",
    "Tweestapsverificatie uitschakelen", "Zmień hasło", "Wyłącz weryfikację dwuetapową", "Şifreyi değiştir",
    "Змінити пароль", "비밀번호 변경", "Deaktivieren der Zwei-Faktor-Authentifizierung", "Add recovery email",
    "Update backup codes",
])
def test_account_security_changes_in_more_languages_ask(label):
    assert click(label).decision is not Decision.ALLOW, label


@pytest.mark.parametrize("label", ["Hesabı sil", "Видалити акаунт", "계정 삭제", "회원 탈퇴"])
def test_closing_an_account_in_turkish_ukrainian_and_korean_asks(label):
    assert click(label).decision is not Decision.ALLOW, label


@pytest.mark.parametrize("label", [
    "Satın al", "Siparişi onayla", "Ödeme yap", "Оплатити зараз", "Testversion starten", "Zimmer buchen",
    "Inizia la prova gratuita", "Nu boeken", "Zarezerwuj", "Rozpocznij bezpłatny okres próbny",
    "Начать пробный период", "开始免费试用", "無料体験を開始", "무료 체험 시작",
])
def test_orders_trials_and_bookings_in_more_languages_ask(label):
    assert click(label).decision is Decision.CONFIRM, label


@pytest.mark.parametrize("label", [
    "Wachtwoord vergeten?", "Password dimenticata?", "Nie pamiętasz hasła?", "Buchungsdetails",
    "Le mie prenotazioni", "Bekijk abonnementen", "Şifremi unuttum", "Hotel details",
])
def test_the_same_words_that_commit_to_nothing_stay_quiet(label):
    assert click(label).decision is Decision.ALLOW, label


@pytest.mark.parametrize("label", ["Delete organization icon", "Remove workspace logo", "Delete account avatar",
                                   "Remove organization banner"])
def test_an_accounts_picture_removed_is_not_the_account_removed(label):
    assert "block.gui.blocklist" not in click(label).rules, label


@pytest.mark.parametrize("label", ["Delete organization", "Delete my account", "Close this workspace"])
def test_the_account_itself_removed_blocks(label):
    assert click(label).decision is Decision.BLOCK, label
