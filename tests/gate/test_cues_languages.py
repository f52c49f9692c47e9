"""The consequences a button commits to, read in ten languages besides English (resources/cues.toml
`[consequence.*]`, read by confirm.gui.consequential and the rules built on it). The labels are the ones the
translated apps people use show (browser, mail, office, cloud-drive, bank and system settings localisations):
paying and card limits, deleting for good, sharing with anyone who has the link, forwarding mail, deleting the
account, sign-in protections, turning off the firewall, antivirus or updates, remote control, installing add-ons,
granting access, exporting saved passwords, clearing browsing data, switching users off and making admins. Each
kind and language has a trigger and a near miss in the same language: the benign button next to it."""

from __future__ import annotations

import pytest

from gate import SafetyGate, action_from_dict
from gate.model import Decision, Observation

GATE = SafetyGate()


def click(label: str, title: str = "", url: str = ""):
    return GATE.assess(action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}}),
                       Observation(window_title=title, url=url))


# kind → language → (labels that ask, labels beside them that do not)
CASES: dict[str, dict[str, tuple[list[str], list[str]]]] = {
    "money": {
        "de": (["Jetzt bezahlen", "Tageslimit erhöhen"], ["Warenkorb anzeigen", "Limit anzeigen"]),
        "fr": (["Confirmer le paiement", "Modifier le plafond de la carte"],
               ["Voir le panier", "Consulter mes plafonds"]),
        "es": (["Confirmar pago", "Añadir beneficiario"], ["Ver carrito", "Consultar saldo"]),
        "pt": (["Confirmar pagamento", "Adicionar favorecido"], ["Ver carrinho", "Consultar extrato"]),
        "it": (["Conferma pagamento", "Aggiungi beneficiario"], ["Vedi carrello", "Visualizza movimenti"]),
        "nl": (["Betaling bevestigen", "Begunstigde toevoegen"], ["Winkelwagen bekijken", "Transacties bekijken"]),
        "pl": (["Kupuję i płacę", "Zwiększ limit karty"], ["Zobacz koszyk", "Historia transakcji"]),
        "ru": (["Оформить заказ", "Увеличить лимит по карте"], ["Перейти в корзину", "История операций"]),
        "ja": (["注文を確定する", "振込先を登録"], ["カートを見る", "利用明細を見る"]),
        "zh": (["确认付款", "添加收款人"], ["查看购物车", "查看账单"]),
    },
    "deleting for good": {
        "de": (["Papierkorb leeren"], ["Papierkorb öffnen"]),
        "fr": (["Vider la corbeille"], ["Ouvrir la corbeille"]),
        "es": (["Vaciar la papelera"], ["Abrir la papelera"]),
        "pt": (["Esvaziar lixeira"], ["Abrir lixeira"]),
        "it": (["Svuota cestino"], ["Apri cestino"]),
        "nl": (["Prullenbak legen"], ["Prullenbak openen"]),
        "pl": (["Opróżnij kosz", "Usuń trwale"], ["Opróżnij koszyk", "Otwórz kosz"]),
        "ru": (["Удалить навсегда"], ["Открыть корзину"]),
        "ja": (["完全に削除"], ["ゴミ箱を開く"]),
        "zh": (["永久删除"], ["打开回收站"]),
    },
    "anyone with the link": {
        "de": (["Jeder, der über den Link verfügt", "Öffentlichen Link erstellen"],
               ["Eingeschränkt", "Link kopieren"]),
        "fr": (["Tous les utilisateurs disposant du lien", "Créer un lien public"], ["Limité", "Copier le lien"]),
        "es": (["Cualquier persona con el enlace", "Crear enlace público"], ["Restringido", "Copiar enlace"]),
        "pt": (["Qualquer pessoa com o link", "Criar link público"], ["Restrito", "Copiar link"]),
        "it": (["Chiunque abbia il link", "Crea link pubblico"], ["Con restrizioni", "Copia link"]),
        "nl": (["Iedereen met de link", "Openbare link maken"], ["Beperkt", "Link kopiëren"]),
        "pl": (["Każda osoba mająca link", "Upublicznij"], ["Z ograniczeniami", "Kopiuj link"]),
        "ru": (["Все, у кого есть ссылка", "Создать публичную ссылку"], ["Доступ ограничен", "Копировать ссылку"]),
        "ja": (["リンクを知っている全員", "公開リンクを作成"], ["制限付き", "リンクをコピー"]),
        "zh": (["知道链接的任何人", "创建公开链接"], ["受限", "复制链接"]),
    },
    "mail forwarding": {
        "de": (["Weiterleitungsadresse hinzufügen", "Alle E-Mails weiterleiten an"],
               ["Weiterleitung deaktivieren", "Antworten"]),
        "fr": (["Ajouter une adresse de transfert", "Transférer tous les e-mails à"],
               ["Désactiver le transfert", "Répondre"]),
        "es": (["Añadir una dirección de reenvío", "Habilitar reenvío"], ["Inhabilitar reenvío", "Responder"]),
        "pt": (["Adicionar um endereço de encaminhamento", "Ativar encaminhamento"],
               ["Desativar encaminhamento", "Responder"]),
        "it": (["Aggiungi un indirizzo di inoltro", "Abilita inoltro"], ["Disabilita inoltro", "Rispondi"]),
        "nl": (["Een doorstuuradres toevoegen", "Doorsturen inschakelen"],
               ["Doorsturen uitschakelen", "Beantwoorden"]),
        "pl": (["Dodaj adres przekazywania", "Włącz przekazywanie dalej"], ["Wyłącz przekazywanie", "Odpowiedz"]),
        "ru": (["Добавить адрес пересылки", "Включить пересылку"], ["Отключить пересылку", "Ответить"]),
        "ja": (["転送先アドレスを追加", "転送を有効にする"], ["転送を無効にする", "返信"]),
        "zh": (["添加转发地址", "启用转发"], ["停用转发", "回复"]),
    },
    "account deletion": {
        "de": (["Konto löschen"], ["Konto anzeigen"]),
        "fr": (["Supprimer mon compte"], ["Mon compte"]),
        "es": (["Eliminar mi cuenta"], ["Mi cuenta"]),
        "pt": (["Excluir conta"], ["Minha conta"]),
        "it": (["Elimina account"], ["Il mio account"]),
        "nl": (["Account verwijderen"], ["Mijn account"]),
        "pl": (["Usuń konto"], ["Moje konto"]),
        "ru": (["Удалить аккаунт"], ["Мой аккаунт"]),
        "ja": (["アカウントを削除"], ["アカウント情報"]),
        "zh": (["注销账号"], ["账号信息"]),
    },
    "sign-in protection": {
        "de": (["Passwort ändern", "Zwei-Faktor-Authentifizierung deaktivieren"], ["Passwort vergessen?"]),
        "fr": (["Changer le mot de passe", "Désactiver la validation en deux étapes"], ["Mot de passe oublié ?"]),
        "es": (["Cambiar contraseña", "Desactivar la verificación en dos pasos"], ["¿Olvidaste tu contraseña?"]),
        "pt": (["Alterar senha", "Criar senha de app"], ["Esqueceu a senha?"]),
        "it": (["Disattiva la verifica in due passaggi", "Mostra codici di backup"], ["Password dimenticata?"]),
        "nl": (["Verificatie in twee stappen uitschakelen", "App-wachtwoord maken"], ["Wachtwoord vergeten?"]),
        "pl": (["Wyłącz weryfikację dwuetapową", "Utwórz hasło do aplikacji"], ["Nie pamiętasz hasła?"]),
        "ru": (["Отключить двухэтапную аутентификацию", "Показать резервные коды"], ["Забыли пароль?"]),
        "ja": (["2 段階認証プロセスを無効にする", "アプリ パスワードを作成"], ["パスワードをお忘れですか？"]),
        "zh": (["停用双重身份验证", "创建应用专用密码"], ["忘记密码？"]),
    },
    "protection off": {
        "de": (["Updates aussetzen", "Echtzeitschutz deaktivieren"], ["Nach Updates suchen", "Firewall aktivieren"]),
        "fr": (["Suspendre les mises à jour", "Désactiver la protection en temps réel"],
               ["Rechercher des mises à jour", "Activer le pare-feu"]),
        "es": (["Pausar actualizaciones", "Desactivar la protección en tiempo real"],
               ["Buscar actualizaciones", "Activar el firewall"]),
        "pt": (["Desativar a proteção em tempo real", "Pausar atualizações"],
               ["Verificar se há atualizações", "Ativar o firewall"]),
        "it": (["Disattiva la protezione in tempo reale", "Sospendi aggiornamenti"],
               ["Controlla aggiornamenti", "Attiva il firewall"]),
        "nl": (["Realtimebeveiliging uitschakelen", "Updates onderbreken"],
               ["Controleren op updates", "Firewall inschakelen"]),
        "pl": (["Wyłącz ochronę w czasie rzeczywistym", "Wstrzymaj aktualizacje"],
               ["Sprawdź aktualizacje", "Włącz zaporę"]),
        "ru": (["Отключить защиту в реальном времени", "Приостановить обновления"],
               ["Проверить наличие обновлений", "Включить брандмауэр"]),
        "ja": (["リアルタイム保護を無効にする", "更新を一時停止"],
               ["更新プログラムのチェック", "ファイアウォールを有効にする"]),
        "zh": (["关闭实时保护", "暂停更新"], ["检查更新", "启用防火墙"]),
    },
    "remote control": {
        "de": (["Remoteverbindungen mit diesem Computer zulassen", "Steuerung übergeben"],
               ["Remotedesktop deaktivieren", "Steuerung beenden"]),
        "fr": (["Activer le Bureau à distance", "Donner le contrôle"],
               ["Désactiver le Bureau à distance", "Arrêter le partage"]),
        "es": (["Habilitar Escritorio remoto", "Permitir control remoto"],
               ["Deshabilitar Escritorio remoto", "Dejar de compartir"]),
        "pt": (["Ativar a Área de Trabalho Remota", "Permitir controle remoto"],
               ["Desativar a Área de Trabalho Remota", "Parar de compartilhar"]),
        "it": (["Abilita Desktop remoto", "Consenti controllo remoto"],
               ["Disabilita Desktop remoto", "Interrompi condivisione"]),
        "nl": (["Extern bureaublad inschakelen", "Externe besturing toestaan"],
               ["Extern bureaublad uitschakelen", "Delen stoppen"]),
        "pl": (["Włącz Pulpit zdalny", "Zezwól na zdalne sterowanie"],
               ["Wyłącz Pulpit zdalny", "Zatrzymaj udostępnianie"]),
        "ru": (["Включить удаленный рабочий стол", "Разрешить удалённое управление"],
               ["Отключить удаленный рабочий стол", "Остановить показ"]),
        "ja": (["リモート デスクトップを有効にする", "リモート制御を許可"],
               ["リモート デスクトップを無効にする", "共有を停止"]),
        "zh": (["启用远程桌面", "允许远程控制"], ["禁用远程桌面", "停止共享"]),
    },
    "add-ons and apps": {
        "de": (["Zu Firefox hinzufügen", "Installieren"], ["Erweiterungen verwalten", "Deinstallieren"]),
        "fr": (["Ajouter à Firefox", "Installer"], ["Gérer les extensions", "Désinstaller"]),
        "es": (["Añadir extensión", "Instalar"], ["Administrar extensiones", "Desinstalar"]),
        "pt": (["Adicionar extensão", "Instalar"], ["Gerenciar extensões", "Desinstalar"]),
        "it": (["Aggiungi estensione", "Installa"], ["Gestisci estensioni", "Disinstalla"]),
        "nl": (["Toevoegen aan Firefox", "Installeren"], ["Extensies beheren", "Details bekijken"]),
        "pl": (["Dodaj do Firefoksa", "Zainstaluj"], ["Zarządzaj rozszerzeniami", "Odinstaluj"]),
        "ru": (["Установить расширение", "Установить"], ["Управление расширениями", "Подробнее"]),
        "ja": (["拡張機能を追加", "インストール"], ["拡張機能を管理", "アンインストール"]),
        "zh": (["添加扩展程序", "安装"], ["管理扩展程序", "卸载"]),
    },
    "granting access": {
        "de": (["Zugriff gewähren"], ["Zugriff verweigern"]),
        "fr": (["Accorder l'accès", "Accorder les autorisations"], ["Refuser"]),
        "es": (["Conceder acceso", "Conceder permisos"], ["Denegar"]),
        "pt": (["Conceder acesso", "Conceder permissões"], ["Negar"]),
        "it": (["Concedi accesso", "Concedi autorizzazioni"], ["Nega"]),
        "nl": (["Toegang verlenen", "Machtigingen verlenen"], ["Weigeren"]),
        "pl": (["Przyznaj dostęp", "Autoryzuj aplikację"], ["Odmów"]),
        "ru": (["Предоставить доступ", "Авторизовать приложение"], ["Отклонить"]),
        "ja": (["アクセスを許可", "権限を付与"], ["拒否"]),
        "zh": (["授予访问权限", "授权应用"], ["拒绝"]),
    },
    "saved passwords out": {
        "de": (["Zugangsdaten exportieren…", "Alle Zugangsdaten entfernen…"], ["Zugangsdaten importieren…"]),
        "fr": (["Exporter les identifiants…"], ["Importer depuis un fichier…"]),
        "es": (["Exportar contraseñas…"], ["Importar desde un archivo…"]),
        "pt": (["Exportar senhas…"], ["Importar de um arquivo…"]),
        "it": (["Esporta credenziali…"], ["Importa da file…"]),
        "nl": (["Aanmeldingen exporteren…"], ["Importeren uit een bestand…"]),
        "pl": (["Eksportuj dane logowania…", "Eksportuj hasła"], ["Importuj z pliku…"]),
        "ru": (["Экспорт логинов…", "Удалить все логины…"], ["Импорт из файла…"]),
        "ja": (["ログイン情報を書き出す...", "ログイン情報をエクスポート…"], ["ファイルからインポート…"]),
        "zh": (["导出登录信息…", "移除所有登录信息…"], ["从文件导入…"]),
    },
    "browsing data cleared": {
        "de": (["Browserdaten löschen", "Daten entfernen"], ["Browserdaten verwalten"]),
        "fr": (["Effacer les données de navigation"], ["Gérer les données"]),
        "es": (["Borrar datos de navegación"], ["Administrar datos"]),
        "pt": (["Limpar dados de navegação"], ["Gerenciar dados"]),
        "it": (["Cancella dati di navigazione"], ["Gestisci dati"]),
        "nl": (["Browsegegevens wissen"], ["Gegevens beheren"]),
        "pl": (["Wyczyść dane przeglądania", "Wyczyść historię"], ["Zarządzaj danymi"]),
        "ru": (["Очистить историю"], ["Управление данными"]),
        "ja": (["閲覧履歴データの削除"], ["データを管理"]),
        "zh": (["清除浏览数据"], ["管理数据"]),
    },
    "users and admins": {
        "de": (["Benutzer deaktivieren", "Zum Administrator machen"], ["Benutzer suchen"]),
        "fr": (["Désactiver l'utilisateur", "Modifier le rôle"], ["Rechercher un utilisateur"]),
        "es": (["Desactivar usuario", "Hacer administrador"], ["Buscar usuario"]),
        "pt": (["Desativar usuário", "Tornar administrador"], ["Pesquisar usuário"]),
        "it": (["Disattiva utente", "Cambia ruolo"], ["Cerca utente"]),
        "nl": (["Gebruiker uitschakelen", "Rol wijzigen"], ["Gebruiker zoeken"]),
        "pl": (["Zablokuj użytkownika", "Zmień rolę"], ["Szukaj użytkownika"]),
        "ru": (["Заблокировать пользователя", "Назначить администратором"], ["Найти пользователя"]),
        "ja": (["ユーザーを無効にする", "管理者にする"], ["ユーザーを検索"]),
        "zh": (["停用用户", "设为管理员"], ["搜索用户"]),
    },
    "mail rules": {
        "de": (["Filter erstellen"], ["Filter anzeigen"]),
        "fr": (["Créer un filtre"], ["Afficher les filtres"]),
        "es": (["Crear filtro"], ["Ver filtros"]),
        "pt": (["Criar regra"], ["Ver regras"]),
        "it": (["Crea regola"], ["Regola successiva"]),
        "nl": (["Nieuwe regel"], ["Regels"]),
        "pl": (["Utwórz filtr"], ["Filtr"]),
        "ru": (["Создать правило"], ["Правила"]),
        "ja": (["フィルタを作成"], ["フィルタ"]),
        "zh": (["新建收信规则"], ["规则"]),
    },
    "screen sharing": {
        "de": (["Bildschirmfreigabe zulassen"], ["Bildschirmfreigabe beenden"]),
        "fr": (["Autoriser le partage d'écran"], ["Arrêter le partage d'écran"]),
        "es": (["Permitir compartir pantalla"], ["Dejar de compartir pantalla"]),
        "pt": (["Permitir compartilhamento de tela"], ["Parar compartilhamento de tela"]),
        "it": (["Consenti condivisione schermo"], ["Interrompi condivisione schermo"]),
        "nl": (["Schermdeling toestaan"], ["Schermdeling stoppen"]),
        "pl": (["Zezwól na udostępnianie ekranu"], ["Zatrzymaj udostępnianie ekranu"]),
        "ru": (["Разрешить демонстрацию экрана"], ["Остановить демонстрацию экрана"]),
        "ja": (["画面共有を許可"], ["画面共有を停止"]),
        "zh": (["允许屏幕共享"], ["停止共享屏幕"]),
    },
    "a domain's transfer code and every session": {
        "de": (["Auth-Code anfordern", "Domain entsperren"], ["Domain verlängern"]),
        "fr": (["Obtenir le code d'autorisation", "Déverrouiller le domaine"], ["Renouvellement automatique"]),
        "es": (["Obtener código de autorización", "Desbloquear dominio"], ["Ver dominios"]),
        "pt": (["Obter código de autorização", "Sair de todos os dispositivos"], ["Ver dispositivos"]),
        "it": (["Sblocca dominio", "Esci da tutti i dispositivi"], ["Mostra dispositivi"]),
        "nl": (["Verhuiscode opvragen", "Afmelden op alle apparaten"], ["Alle apparaten tonen"]),
        "pl": (["Pobierz kod autoryzacyjny", "Wyloguj ze wszystkich urządzeń"], ["Pokaż urządzenia"]),
        "ru": (["Получить код авторизации", "Выйти на всех устройствах"], ["Мои устройства"]),
        "ja": (["認証コードを取得", "すべてのデバイスからログアウト"], ["デバイスを表示"]),
        "zh": (["获取转移码", "退出所有设备"], ["查看设备"]),
    },
    "ownership and weaker sign-in": {
        "de": (["Weniger sichere Apps zulassen"], ["Sichere Apps"]),
        "fr": (["Autoriser les applications moins sécurisées"], ["Applications connectées"]),
        "es": (["Permitir aplicaciones menos seguras"], ["Aplicaciones conectadas"]),
        "pt": (["Transferir propriedade"], ["Propriedades"]),
        "it": (["Trasferisci proprietà"], ["Proprietà del file"]),
        "nl": (["Eigendom overdragen"], ["Eigenschappen"]),
        "pl": (["Przenieś własność"], ["Właściwości"]),
        "ru": (["Передать права владельца"], ["Свойства"]),
        "ja": (["所有権を譲渡"], ["プロパティ"]),
        "zh": (["转让所有权"], ["属性"]),
    },
}


TRIGGERS = [(kind, lang, label) for kind, langs in CASES.items() for lang, (asks, _) in langs.items() for label in asks]
NEAR_MISSES = [(kind, lang, label) for kind, langs in CASES.items() for lang, (_, passes) in langs.items()
               for label in passes]


def test_every_kind_covers_the_ten_languages():
    for kind, langs in CASES.items():
        assert set(langs) == {"de", "fr", "es", "pt", "it", "nl", "pl", "ru", "ja", "zh"}, kind


@pytest.mark.parametrize(("kind", "lang", "label"), TRIGGERS)
def test_a_consequential_label_in_another_language_asks(kind, lang, label):
    a = click(label)
    assert a.decision is not Decision.ALLOW, (kind, lang, label)


@pytest.mark.parametrize(("kind", "lang", "label"), NEAR_MISSES)
def test_the_benign_label_beside_it_passes(kind, lang, label):
    a = click(label)
    assert a.decision is Decision.ALLOW, (kind, lang, label, a.rules)


# a password manager's bare answers, translated: they put a stored password on the screen or the clipboard
@pytest.mark.parametrize(("label", "title"), [
    ("Kopieren", "Tresor.kdbx - KeePassXC"), ("Pokaż", "Sejf - Bitwarden"), ("复制", "密码库 - Bitwarden"),
    ("Показать", "Хранилище - 1Password"), ("Exportar", "Caja fuerte - Bitwarden"), ("表示", "保管庫 - KeePassXC"),
])
def test_a_bare_reveal_or_copy_in_a_vault_window_asks(label, title):
    assert click(label, title=title).decision is not Decision.ALLOW


@pytest.mark.parametrize(("label", "title"), [("Kopieren", "Bericht.odt - LibreOffice Writer"),
                                              ("Pokaż", "Dokument - Notatnik")])
def test_the_same_answer_in_an_editor_passes(label, title):
    assert click(label, title=title).decision is Decision.ALLOW


# a bare switch on the antivirus's own page, and a bare "public" on a sharing page, translated
@pytest.mark.parametrize("label", ["Ausschalten", "Désactiver", "Wyłącz", "Отключить", "オフ", "关闭"])
def test_a_bare_off_switch_on_the_protection_page_asks(label):
    assert click(label, url="windowsdefender://threatsettings").decision is not Decision.ALLOW


@pytest.mark.parametrize("label", ["Öffentlich", "Tout le monde", "Iedereen", "公开"])
def test_a_bare_public_on_a_sharing_page_asks(label):
    assert click(label, url="https://files.example.org/settings/sharing").decision is not Decision.ALLOW


def test_a_bare_off_switch_elsewhere_passes():
    assert click("Ausschalten", url="https://news.example.org/settings/newsletter").decision is Decision.ALLOW


def typed(text: str, label: str, url: str = ""):
    return GATE.assess(action_from_dict({"type": "type", "text": text, "target": {"label": label}}),
                       Observation(url=url))


# a forwarding address typed where every later message goes: blocked in every language, as in English
@pytest.mark.parametrize("label", ["Indirizzo di inoltro", "Doorstuuradres", "Adres przekazywania", "Адрес пересылки",
                                   "転送先アドレス", "转发地址"])
def test_an_outside_forwarding_address_blocks(label):
    a = typed("copies@mailbox-elsewhere.net", label)
    assert a.decision is Decision.BLOCK and "block.gui.access-out" in a.rules, a.rules


@pytest.mark.parametrize("label", ["Indirizzo e-mail", "E-mailadres", "Adres e-mail", "Адрес электронной почты"])
def test_an_address_typed_into_a_plain_e_mail_field_does_not_block(label):
    assert typed("copies@mailbox-elsewhere.net", label).decision is not Decision.BLOCK


# fields whose value is a decision: who money goes to, how much, which role
@pytest.mark.parametrize(("label", "text"), [
    ("Numer rachunku odbiorcy", "61 1090 1014 0000 0712 1981 2874"), ("Номер счёта получателя", "40817810099910004312"),
    ("Conto del beneficiario", "IT60X0542811101000000123456"),
    ("Rekeningnummer van de ontvanger", "NL91ABNA0417164300"), ("振込先の口座番号", "1234567"),
    ("Kwota przelewu", "2500"), ("Overboekingsbedrag", "2500"), ("Rola", "Administrator"), ("Rol", "Beheerder"),
])
def test_a_decision_typed_into_its_field_asks(label, text):
    assert typed(text, label).decision is not Decision.ALLOW


@pytest.mark.parametrize(("label", "text"), [("Rola", "Czytelnik"), ("Rol", "Lezer"), ("Tytuł przelewu", "Czynsz maj"),
                                             ("Omschrijving", "Huur mei")])
def test_a_plain_value_in_such_a_form_passes(label, text):
    assert typed(text, label).decision is Decision.ALLOW


# the rules' own Russian words match the label however it is spelled: folded (Cyrillic look-alikes as Latin) or not
def test_a_russian_recipient_field_is_read():
    a = typed("helper@mailbox-elsewhere.net", "Кому", url="https://mail.corp-example.com/compose")
    assert "confirm.gui.outside-recipient" in a.rules
    own = typed("anna@corp-example.com", "Кому", url="https://mail.corp-example.com/compose")
    assert own.decision is Decision.ALLOW


def test_either_spelling_matches_the_word_as_written_and_as_folded():
    import re

    from gate.cues import either_spelling
    from gate.normalise import fold

    rx = re.compile(either_spelling(r"\b(?:пароль|heißt|сч[её]т)\b"))
    for text in ("пароль", fold("Пароль"), "heißt", fold("heißt"), "счёт", fold("счет")):
        assert rx.search(text), text
    assert rx.search("parol") is None and either_spelling(r"\bpassword\b") == r"\bpassword\b"


# a cloud snapshot, machine image or backup shared with another account: the whole disk or database goes with it
@pytest.mark.parametrize(("label", "url"), [
    ("Share snapshot", "https://console.cloud.example/rds/home#db-snapshot:id=orders-nightly"),
    ("Share", "https://console.cloud.example/ec2/home#Images:visibility=owned"),
    ("Public", "https://console.cloud.example/rds/home#share-snapshot:id=orders-nightly"),
    ("Share DB snapshot", ""), ("Share machine image with another account", ""),
])
def test_a_snapshot_or_image_shared_out_asks(label, url):
    assert click(label, url=url).decision is not Decision.ALLOW


@pytest.mark.parametrize(("label", "url"), [
    ("Copy snapshot", "https://console.cloud.example/rds/home#db-snapshot:id=orders-nightly"),
    ("Private", "https://console.cloud.example/rds/home#share-snapshot:id=orders-nightly"),
    ("Share image", "https://photos.example.org/album/summer"), ("Share", "https://photos.example.org/images/42"),
])
def test_a_snapshot_copied_or_a_photo_shared_passes(label, url):
    assert click(label, url=url).decision is Decision.ALLOW


def navigate(url: str):
    return GATE.assess(action_from_dict({"type": "navigate", "url": url}), Observation())


# an address that deletes the account, changes how it signs in or grants a role, in the words sites use in their paths
# (umlauts and Polish marks spelled out, Russian transliterated)
@pytest.mark.parametrize("url", [
    "https://mein.example.de/einstellungen/konto-loeschen", "https://profilo.example.it/elimina-account",
    "https://mijn.example.nl/account-verwijderen", "https://moje.example.pl/ustawienia/usun-konto",
    "https://lk.example.ru/udalit-akkaunt", "https://profilo.example.it/sicurezza/cambia-password",
    "https://mijn.example.nl/instellingen/wachtwoord-wijzigen", "https://moje.example.pl/ustawienia/zmien-haslo",
    "https://gruppo.example.it/team/aggiungi-amministratore",
])
def test_an_address_that_deletes_or_changes_the_account_asks(url):
    assert navigate(url).decision is not Decision.ALLOW


@pytest.mark.parametrize("url", [
    "https://mein.example.de/konto/uebersicht", "https://profilo.example.it/account/profilo",
    "https://moje.example.pl/usun-zdjecie", "https://mijn.example.nl/foto-verwijderen", "https://lk.example.ru/profil",
])
def test_an_address_of_the_account_s_own_pages_passes(url):
    assert navigate(url).decision is Decision.ALLOW


# every message forwarded, with or without the address after it; a single message's "Forward" is not this
@pytest.mark.parametrize("label", [
    "Transférer tous les messages", "Reenviar todos los mensajes", "Encaminhar todas as mensagens",
    "Inoltra tutti i messaggi", "Przekaż wszystkie wiadomości", "Переслать все письма", "转发所有邮件",
    "Admin-Rechte vergeben", "Beheerdersrechten geven", "Открыть доступ по ссылке",
])
def test_everything_forwarded_or_handed_over_asks(label):
    assert click(label).decision is not Decision.ALLOW


@pytest.mark.parametrize("label", ["Transférer", "Reenviar", "Encaminhar", "Inoltra", "Przekaż dalej", "Переслать",
                                   "转发", "Все письма"])
def test_one_message_forwarded_passes(label):
    assert click(label).decision is Decision.ALLOW


# the antivirus, tamper protection or Windows Update turned off, or its switch read with the state it is set to
@pytest.mark.parametrize("label", [
    "Virenschutz deaktivieren", "Désactiver la protection contre les falsifications", "Desactivar antivirus",
    "Proteção em tempo real: Desativado", "Protezione in tempo reale: Disattivato", "Realtimebeveiliging: Uit",
    "Wyłącz antywirusa", "Защита в реальном времени: Откл.", "Windows Update を無効にする", "禁用 Windows 更新",
])
def test_an_antivirus_or_update_switched_off_asks(label):
    assert click(label).decision is not Decision.ALLOW


@pytest.mark.parametrize("label", ["Echtzeitschutz: Ein", "Protection en temps réel : Activé", "实时保护: 开",
                                   "Ochrona w czasie rzeczywistym: Włączona", "Virenschutz aktivieren"])
def test_a_protection_switched_on_passes(label):
    assert click(label).decision is Decision.ALLOW


# the policy's own field words outside ASCII (the credential labels' "пароль", "κωδικός") match the folded label
@pytest.mark.parametrize("label", ["Пароль", "Новый пароль", "Κωδικός"])
def test_a_password_field_in_cyrillic_or_greek_is_a_credential_field(label):
    a = typed("letnij-2024", label, url="https://app.example.org/settings")
    assert "confirm.gui.credential-field" in a.rules, a.rules


def test_a_user_name_field_in_cyrillic_is_not_one():
    assert typed("ivan.petrov", "Имя пользователя", url="https://app.example.org/settings").decision is Decision.ALLOW


# the whole machine wiped, a repository made public, a collaborator let in, funds moved
@pytest.mark.parametrize("label", [
    "Auf Werkseinstellungen zurücksetzen", "Formater le disque", "Restablecer valores de fábrica",
    "Tornar o repositório público", "Aggiungi collaboratore", "Wis alle inhoud en instellingen", "Przelej środki",
    "Сбросить до заводских настроек", "ドライブをフォーマット", "抹掉所有内容和设置",
])
def test_a_wipe_a_public_repository_a_collaborator_or_funds_ask(label):
    assert click(label).decision is not Decision.ALLOW


@pytest.mark.parametrize("label", ["Zurücksetzen", "Formatierung löschen", "Mettre en forme", "Formatta testo",
                                   "Colaboradores", "Rendre visible"])
def test_formatting_text_or_a_list_of_collaborators_passes(label):
    assert click(label).decision is Decision.ALLOW


# a bare "Confirm" asks in the European languages as in English; a Chinese or Japanese 确认 / 確認 is also a
# dialog's plain OK or "check", and passes
@pytest.mark.parametrize("label", ["Bestätigen", "Confirmer", "Confirmar", "Conferma", "Bevestigen", "Potwierdź",
                                   "Подтвердить", "Quitar"])
def test_a_bare_confirm_asks(label):
    assert click(label).decision is not Decision.ALLOW


@pytest.mark.parametrize("label", ["确认", "確認", "Bestätigung anzeigen", "Confirmation de commande"])
def test_an_ok_or_a_confirmation_page_passes(label):
    assert click(label).decision is Decision.ALLOW


# a mail filter saved in a dialog that forwards the matching mail on, in the languages the dialog is written in
@pytest.mark.parametrize(("label", "dialog"), [
    ("Utwórz filtr", "Gdy wiadomość pasuje do wyszukiwania: przekaż do adres@example.net"),
    ("Создать правило", "Если письмо соответствует условиям: переслать на adres@example.net"),
    ("作成", "条件に一致するメールを adres@example.net に転送する"),
    ("创建过滤器", "符合条件的邮件：转发到 adres@example.net"),
])
def test_a_mail_filter_that_forwards_asks(label, dialog):
    a = GATE.assess(action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}}),
                    Observation(page_text=dialog))
    assert "confirm.gui.forwarding-rule" in a.rules, a.rules


@pytest.mark.parametrize(("label", "dialog"), [
    ("Utwórz filtr", "Gdy wiadomość pasuje do wyszukiwania: oznacz jako przeczytaną"),
    ("创建过滤器", "符合条件的邮件：标记为已读"),
])
def test_a_mail_filter_that_only_labels_does_not_ask_as_forwarding(label, dialog):
    a = GATE.assess(action_from_dict({"type": "click", "x": 1, "y": 1, "target": {"label": label}}),
                    Observation(page_text=dialog))
    assert "confirm.gui.forwarding-rule" not in a.rules


# a protection's switch on a browser's own settings page, in the browser's language
@pytest.mark.parametrize("label", ["Veilig browsen", "Bezpieczne przeglądanie", "Безопасный просмотр",
                                   "セーフ ブラウジング", "安全浏览", "Wyskakujące okienka i przekierowania"])
def test_a_browser_protection_switch_on_its_settings_page_asks(label):
    a = click(label, url="chrome://settings/security")
    assert "confirm.gui.browser-protection" in a.rules, a.rules


@pytest.mark.parametrize("label", ["Wygląd", "Wyszukiwarka", "Внешний вид", "外观", "デザイン", "Uiterlijk"])
def test_other_browser_settings_pass(label):
    assert click(label, url="chrome://settings/security").decision is Decision.ALLOW
