//! Why a move the person typed is refused, in their language: the core's reason
//! ([`Observation::why_illegal`], judged from the person's own view, so it can tell nothing
//! hidden) put into words.

use super::words::{role_word, Lang};
use junqi_core::{IllegalAction, MoveBlocked};

/// The refusal in words, e.g. `b6 上的连长不能走到 b7：中间是山界（b、d 两路不通）`.
pub fn refusal_words(e: &IllegalAction, lang: Lang) -> String {
    use IllegalAction as A;
    let l = lang;
    match e {
        A::GameOver { .. } | A::SideEliminated => l.t("对局已结束", "the game is over").into(),
        A::SquareOffBoard { index } => match l {
            Lang::Zh => format!("棋盘上没有第 {index} 格"),
            Lang::En => format!("square index {index} is not on the board"),
        },
        A::NoFlips => l
            .t("只有翻棋才能翻子", "flips exist only in flip play")
            .into(),
        A::NothingToFlip { square } => match l {
            Lang::Zh => format!("{square} 上没有可翻的棋子"),
            Lang::En => format!("there is no piece on {square} to flip"),
        },
        A::AlreadyFaceUp { square } => match l {
            Lang::Zh => format!("{square} 上的棋子已经翻开"),
            Lang::En => format!("the piece on {square} is already face up"),
        },
        A::NoPiece { square } => match l {
            Lang::Zh => format!("{square} 上没有棋子"),
            Lang::En => format!("there is no piece on {square}"),
        },
        A::ColoursNotSettled => l
            .t(
                "颜色未定，现在只能翻棋",
                "colours are not settled yet: only flips are legal",
            )
            .into(),
        A::FaceDown { square } => match l {
            Lang::Zh => format!("{square} 上的棋子还没有翻开"),
            Lang::En => format!("the piece on {square} is face down"),
        },
        A::NotYourPiece { square, .. } => match l {
            Lang::Zh => format!("{square} 上不是你的棋子"),
            Lang::En => format!("the piece on {square} is not yours"),
        },
        A::NeverMoves { role, square } => match l {
            Lang::Zh => format!(
                "{square} 上的{}不能移动（地雷和军旗永不移动）",
                role.chinese()
            ),
            Lang::En => format!(
                "the {} on {square} never moves (landmines and flags stay put)",
                role_word(*role, l)
            ),
        },
        A::HeadquartersLocked { square } => match l {
            Lang::Zh => format!("{square} 是大本营：进了大本营的棋子不能再动"),
            Lang::En => {
                format!("{square} is a headquarters: a piece in a headquarters never moves again")
            }
        },
        A::CannotMove {
            role,
            from,
            to,
            why,
        } => match l {
            Lang::Zh => format!(
                "{from} 上的{}不能走到 {to}：{}",
                role.chinese(),
                blocked_words(why, l)
            ),
            Lang::En => format!(
                "the {} on {from} cannot move to {to}: {}",
                role_word(*role, l),
                blocked_words(why, l)
            ),
        },
        A::NoSuchSeat { seat } | A::AlreadyOut { seat } => match l {
            Lang::Zh => format!("座位 {seat} 不在对局中"),
            Lang::En => format!("seat {seat} is not in the game"),
        },
        A::NotYourTurn { .. } => l.t("还没轮到你", "it is not your turn").into(),
    }
}

/// What stops a movable piece, in words.
pub fn blocked_words(why: &MoveBlocked, lang: Lang) -> String {
    use MoveBlocked as B;
    match lang {
        Lang::En => why.to_string(),
        Lang::Zh => match why {
            B::SameSquare => "那就是它所在的格".into(),
            B::FriendThere => "那里是自己一方的棋子".into(),
            B::CampOccupied => "行营里的棋子不能被攻击".into(),
            B::FaceDownThere => "未翻开的棋子不能被攻击".into(),
            B::Mountain => "中间隔着山界（b、d 两路不通）".into(),
            B::NoDiagonal => "斜线只通行营".into(),
            B::NotOnRail => "它不在铁路上，只能走一步".into(),
            B::DestinationOffRail => "那一格不相邻，也不在铁路上".into(),
            B::RailTurn => "两格不在同一条直铁路上，只有工兵能在铁路上拐弯".into(),
            B::PathBlocked { at } => format!("{at} 上的棋子挡住了去路"),
            B::NoFreeRailPath => "所有铁路都被挡住了".into(),
            B::LosingAttack => "这一攻必输，本规则不许送子".into(),
            B::FlagGuarded => "对方地雷未除尽，军旗不能攻击".into(),
            B::AttackForbidden => "规则不允许这样进攻".into(),
            B::NoRoute => "没有公路或铁路通往那里".into(),
        },
    }
}
